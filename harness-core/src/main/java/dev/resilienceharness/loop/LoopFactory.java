package dev.resilienceharness.loop;

import static org.apiguardian.api.API.Status.STABLE;

import dev.resilienceharness.config.HarnessConfig;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import org.apiguardian.api.API;

/** Makes a fresh loop instance for every run and every simulated restart. */
@FunctionalInterface
@API(status = STABLE, since = "0.1.0")
public interface LoopFactory {

    AgentLoop create();

    /** The built-in loop: always the same factory, so that a rehearsal can tell it from a team's loop. */
    static LoopFactory builtin() {
        return Builtin.FACTORY;
    }

    /**
     * The loop named by {@code loop:}: the built-in one, or a class on {@code classLoader} implementing
     * {@link AgentLoop} with a public no-argument constructor.
     *
     * @throws LoopNotUsable when the class cannot be found or made
     */
    static LoopFactory forName(String name, ClassLoader classLoader) throws LoopNotUsable {
        if (HarnessConfig.BUILTIN_LOOP.equals(name)) {
            return builtin();
        }
        Class<?> type;
        try {
            type = Class.forName(name, false, classLoader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new LoopNotUsable("class " + name + " is not on the project's test classpath; check the name,"
                    + " or add the module that holds it as a test dependency");
        }
        if (!AgentLoop.class.isAssignableFrom(type)) {
            throw new LoopNotUsable("class " + name + " does not implement " + AgentLoop.class.getName());
        }
        if (Modifier.isAbstract(type.getModifiers())) {
            throw new LoopNotUsable("class " + name + " is abstract; name a concrete class");
        }
        Constructor<? extends AgentLoop> ctor;
        try {
            ctor = type.asSubclass(AgentLoop.class).getConstructor();
        } catch (NoSuchMethodException e) {
            throw new LoopNotUsable("class " + name + " has no public no-argument constructor; add one");
        }
        LoopFactory factory = () -> {
            try {
                return ctor.newInstance();
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                throw new IllegalStateException("the constructor of " + name + " threw "
                        + cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot create " + name + ": " + e.getMessage(), e);
            } catch (ExceptionInInitializerError e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                throw new IllegalStateException("the static initializer of " + name + " threw "
                        + cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
            } catch (LinkageError e) {
                throw new IllegalStateException("cannot load " + name + ": " + e, e);
            }
        };
        try {
            factory.create();
        } catch (IllegalStateException e) {
            throw new LoopNotUsable(e.getMessage());
        }
        return factory;
    }

    /** The loop named in the config cannot be used; the message says why and what to do. */
    final class LoopNotUsable extends Exception {
        public LoopNotUsable(String message) {
            super(message);
        }
    }

    /** Holds the built-in loop's one factory. */
    final class Builtin {
        static final LoopFactory FACTORY = BuiltinLoop::new;

        private Builtin() {
        }
    }
}
