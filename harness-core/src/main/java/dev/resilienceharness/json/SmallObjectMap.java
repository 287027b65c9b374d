package dev.resilienceharness.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The members of a JSON object with few of them, in the order they were added, held in two arrays: a request's and a
 * response's objects (a handful of members each), which a check keeps by the ten thousand, in about a third of the
 * memory a {@link LinkedHashMap} takes, which gives every member an entry and every object a hash table. Names are
 * looked up one by one, so a reader collects members through {@link Members}, which moves to a
 * {@code LinkedHashMap} past {@value #MAX} of them.
 *
 * <p>It behaves as a {@code LinkedHashMap} in insertion order: a value put for a name already there keeps its place, a
 * removed member closes the gap, views and entries write through. As with a {@code LinkedHashMap} in insertion order,
 * several threads may read it at once (a config's requests are read so), but none may change it meanwhile.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class SmallObjectMap extends AbstractMap<String, JsonNode> {

    /** The most members {@link Members} keeps in one: {@value}. */
    public static final int MAX = 16;

    private String[] names;
    private JsonNode[] values;
    private int size;
    /** Changed by every addition and removal, so that an iterator can tell it was overtaken. */
    private int changes;

    /** An empty map with room for four members. */
    public SmallObjectMap() {
        this.names = new String[4];
        this.values = new JsonNode[4];
    }

    private int indexOf(Object name) {
        if (name == null) {
            return -1;
        }
        for (int i = 0; i < size; i++) {
            // Readers share one String per name, so this mostly ends at the identity test inside equals.
            if (name.equals(names[i])) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean containsKey(Object name) {
        return indexOf(name) >= 0;
    }

    @Override
    public JsonNode get(Object name) {
        int i = indexOf(name);
        return i < 0 ? null : values[i];
    }

    @Override
    public JsonNode put(String name, JsonNode value) {
        Objects.requireNonNull(name, "name");
        int i = indexOf(name);
        if (i >= 0) {
            JsonNode before = values[i];
            values[i] = value;
            return before;
        }
        if (size == names.length) {
            names = Arrays.copyOf(names, 2 * size);
            values = Arrays.copyOf(values, 2 * size);
        }
        names[size] = name;
        values[size] = value;
        size++;
        changes++;
        return null;
    }

    @Override
    public JsonNode remove(Object name) {
        int i = indexOf(name);
        if (i < 0) {
            return null;
        }
        JsonNode before = values[i];
        removeAt(i);
        return before;
    }

    private void removeAt(int i) {
        System.arraycopy(names, i + 1, names, i, size - i - 1);
        System.arraycopy(values, i + 1, values, i, size - i - 1);
        size--;
        names[size] = null;
        values[size] = null;
        changes++;
    }

    @Override
    public void clear() {
        Arrays.fill(names, 0, size, null);
        Arrays.fill(values, 0, size, null);
        size = 0;
        changes++;
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super JsonNode> action) {
        int expected = changes;
        for (int i = 0; i < size; i++) {
            action.accept(names[i], values[i]);
            if (changes != expected) {
                throw new ConcurrentModificationException();
            }
        }
    }

    /** As {@link Map#hashCode}: the sum of each member's {@code name.hashCode() ^ value.hashCode()}. */
    @Override
    public int hashCode() {
        int h = 0;
        for (int i = 0; i < size; i++) {
            h += names[i].hashCode() ^ Objects.hashCode(values[i]);
        }
        return h;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof Map<?, ?> other) || other.size() != size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            Object theirs = other.get(names[i]);
            if (values[i] == null ? theirs != null || !other.containsKey(names[i]) : !values[i].equals(theirs)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Set<Map.Entry<String, JsonNode>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public void clear() {
                SmallObjectMap.this.clear();
            }

            @Override
            public Iterator<Map.Entry<String, JsonNode>> iterator() {
                return new Iterator<>() {
                    private int next;
                    private int last = -1;
                    private int expected = changes;

                    @Override
                    public boolean hasNext() {
                        return next < size;
                    }

                    @Override
                    public Map.Entry<String, JsonNode> next() {
                        if (changes != expected) {
                            throw new ConcurrentModificationException();
                        }
                        if (next >= size) {
                            throw new NoSuchElementException();
                        }
                        last = next++;
                        return new Member(names[last], last);
                    }

                    @Override
                    public void remove() {
                        if (last < 0) {
                            throw new IllegalStateException();
                        }
                        if (changes != expected) {
                            throw new ConcurrentModificationException();
                        }
                        removeAt(last);
                        next = last;
                        last = -1;
                        expected = changes;
                    }
                };
            }
        };
    }

    /**
     * One member, read and written through the map as a {@code LinkedHashMap}'s entry is: where it was met while the
     * member is still there, else by its name.
     */
    private final class Member implements Map.Entry<String, JsonNode> {

        private final String name;
        private final int at;

        Member(String name, int at) {
            this.name = name;
            this.at = at;
        }

        private int index() {
            return at < size && names[at] == name ? at : indexOf(name);
        }

        @Override
        public String getKey() {
            return name;
        }

        @Override
        public JsonNode getValue() {
            int i = index();
            return i < 0 ? null : values[i];
        }

        @Override
        public JsonNode setValue(JsonNode value) {
            int i = index();
            if (i < 0) {
                throw new IllegalStateException("the member " + name + " was removed");
            }
            JsonNode before = values[i];
            values[i] = value;
            return before;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Map.Entry<?, ?> e && name.equals(e.getKey())
                    && Objects.equals(getValue(), e.getValue());
        }

        @Override
        public int hashCode() {
            return name.hashCode() ^ Objects.hashCode(getValue());
        }

        @Override
        public String toString() {
            return name + "=" + getValue();
        }
    }

    /**
     * An object's members as a reader meets them, in a {@link SmallObjectMap} while they are at most {@value #MAX}
     * and in a {@link LinkedHashMap} from then on, so that a long object is not looked up one name at a time.
     */
    public static final class Members {

        private Map<String, JsonNode> members = new SmallObjectMap();

        /** Adds a member; {@code false}, adding nothing, when the object has one of that name already. */
        public boolean add(String name, JsonNode value) {
            if (members.size() == MAX && members instanceof SmallObjectMap) {
                members = new LinkedHashMap<>(members);
            }
            return members.putIfAbsent(name, value) == null;
        }

        /** The object of the members added. */
        public ObjectNode object() {
            return new ObjectNode(JsonNodeFactory.instance, members);
        }
    }
}
