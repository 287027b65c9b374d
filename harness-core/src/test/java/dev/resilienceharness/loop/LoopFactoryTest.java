package dev.resilienceharness.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoopFactoryTest {

    private static final ClassLoader LOADER = LoopFactoryTest.class.getClassLoader();

    public static final class GoodLoop implements AgentLoop {
        @Override
        public List<Outcome> run(LoopRun run) {
            return List.of();
        }
    }

    public abstract static class AbstractLoop implements AgentLoop {
    }

    public static final class NeedsArgumentLoop implements AgentLoop {
        public NeedsArgumentLoop(String config) {
        }

        @Override
        public List<Outcome> run(LoopRun run) {
            return List.of();
        }
    }

    public static final class ThrowingLoop implements AgentLoop {
        public ThrowingLoop() {
            throw new IllegalStateException("LOOP_HOME is not set");
        }

        @Override
        public List<Outcome> run(LoopRun run) {
            return List.of();
        }
    }

    public static final class FailingStaticInitLoop implements AgentLoop {
        static final String HOME = System.getenv().getOrDefault("__RH_NEVER_SET__", null).trim();

        @Override
        public List<Outcome> run(LoopRun run) {
            return List.of();
        }
    }

    public static final class NotALoop {
    }

    private static String name(Class<?> type) {
        return type.getName();
    }

    private static String refusal(String className) {
        return assertThrows(LoopFactory.LoopNotUsable.class, () -> LoopFactory.forName(className, LOADER))
                .getMessage();
    }

    @Test
    void builtin_names_the_built_in_loop_with_a_fresh_instance_each_time() throws Exception {
        LoopFactory factory = LoopFactory.forName("builtin", LOADER);
        AgentLoop first = factory.create();
        assertInstanceOf(BuiltinLoop.class, first);
        assertNotSame(first, factory.create());
        assertInstanceOf(BuiltinLoop.class, LoopFactory.builtin().create());
    }

    @Test
    void a_class_on_the_classpath_is_made_fresh_for_every_run() throws Exception {
        LoopFactory factory = LoopFactory.forName(name(GoodLoop.class), LOADER);
        AgentLoop first = factory.create();
        assertInstanceOf(GoodLoop.class, first);
        assertNotSame(first, factory.create());
    }

    @Test
    void a_class_that_is_not_found_says_to_check_the_classpath() {
        assertEquals("class com.acme.agent.Missing is not on the project's test classpath; check the name, or add"
                + " the module that holds it as a test dependency", refusal("com.acme.agent.Missing"));
    }

    @Test
    void a_class_that_is_no_agent_loop_is_refused() {
        assertEquals("class " + name(NotALoop.class) + " does not implement dev.resilienceharness.loop.AgentLoop",
                refusal(name(NotALoop.class)));
        assertEquals("class java.lang.String does not implement dev.resilienceharness.loop.AgentLoop",
                refusal("java.lang.String"));
    }

    @Test
    void an_abstract_class_or_interface_is_refused() {
        assertEquals("class " + name(AbstractLoop.class) + " is abstract; name a concrete class",
                refusal(name(AbstractLoop.class)));
        assertEquals("class dev.resilienceharness.loop.AgentLoop is abstract; name a concrete class",
                refusal(AgentLoop.class.getName()));
    }

    @Test
    void a_class_without_a_public_no_argument_constructor_is_refused() {
        assertEquals("class " + name(NeedsArgumentLoop.class) + " has no public no-argument constructor; add one",
                refusal(name(NeedsArgumentLoop.class)));
    }

    @Test
    void a_constructor_that_throws_is_refused_up_front_with_its_message() {
        assertEquals("the constructor of " + name(ThrowingLoop.class)
                + " threw IllegalStateException: LOOP_HOME is not set", refusal(name(ThrowingLoop.class)));
    }

    @Test
    void a_class_whose_static_initializer_throws_is_refused() {
        String message = refusal(name(FailingStaticInitLoop.class));
        assertEquals(true, message.contains(name(FailingStaticInitLoop.class)), message);
    }
}
