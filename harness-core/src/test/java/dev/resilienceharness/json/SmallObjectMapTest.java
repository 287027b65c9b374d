package dev.resilienceharness.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

class SmallObjectMapTest {

    /** One step on a map: what it does, a name from a few, and a value. */
    record Step(int kind, String name, int value) {
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Step> step = Combinators.combine(Arbitraries.integers().between(0, 9),
                Arbitraries.of("a", "b", "c", "d", "e", "f", "g", "h", "role", "content", "model"),
                Arbitraries.integers().between(0, 3)).as(Step::new);
        return step.list().ofMaxSize(60);
    }

    /** Every step on both maps, which must answer alike and hold the same members in the same order throughout. */
    @Property(tries = 2000)
    void behavesAsALinkedHashMapInInsertionOrder(@ForAll("steps") List<Step> steps) {
        SmallObjectMap small = new SmallObjectMap();
        Map<String, JsonNode> linked = new LinkedHashMap<>();
        for (Step s : steps) {
            JsonNode value = IntNode.valueOf(s.value());
            switch (s.kind()) {
                case 0, 1, 2 -> assertEquals(linked.put(s.name(), value), small.put(s.name(), value), s.toString());
                case 3 -> assertEquals(linked.remove(s.name()), small.remove(s.name()), s.toString());
                case 4 -> assertEquals(linked.get(s.name()), small.get(s.name()), s.toString());
                case 5 -> assertEquals(linked.containsKey(s.name()), small.containsKey(s.name()), s.toString());
                case 6 -> assertEquals(linked.putIfAbsent(s.name(), value), small.putIfAbsent(s.name(), value));
                case 7 -> {
                    // Removing through the iterator, the members whose value is this step's.
                    linked.values().removeIf(value::equals);
                    small.values().removeIf(value::equals);
                }
                case 8 -> {
                    // Writing through the entries.
                    linked.entrySet().stream().filter(e -> e.getKey().equals(s.name())).forEach(e -> e.setValue(value));
                    small.entrySet().stream().filter(e -> e.getKey().equals(s.name())).forEach(e -> e.setValue(value));
                }
                default -> {
                    if (s.value() == 0) {
                        linked.clear();
                        small.clear();
                    }
                }
            }
            assertEquals(new ArrayList<>(linked.entrySet()), new ArrayList<>(small.entrySet()), s.toString());
            assertEquals(new ArrayList<>(linked.keySet()), new ArrayList<>(small.keySet()));
            assertEquals(linked.size(), small.size());
            assertEquals(linked.hashCode(), small.hashCode());
            assertTrue(small.equals(linked) && linked.equals(small));
            List<String> seen = new ArrayList<>();
            small.forEach((k, v) -> seen.add(k));
            assertEquals(new ArrayList<>(linked.keySet()), seen);
        }
    }

    @Test
    void anObjectOfItEqualsTheSameObjectOfALinkedHashMap() {
        SmallObjectMap.Members members = new SmallObjectMap.Members();
        assertTrue(members.add("role", StringNode.valueOf("user")));
        assertTrue(members.add("content", StringNode.valueOf("hi")));
        assertFalse(members.add("role", StringNode.valueOf("system")), "a name met again is refused");
        ObjectNode small = members.object();
        ObjectNode usual = Json.mapper().createObjectNode().put("role", "user").put("content", "hi");
        assertEquals(usual, small);
        assertEquals(small, usual);
        assertEquals(usual.hashCode(), small.hashCode());
        assertEquals("{\"role\":\"user\",\"content\":\"hi\"}", small.toString());
        assertEquals(usual, small.deepCopy());
        small.remove("role");
        small.put("role", "assistant");
        assertEquals("{\"content\":\"hi\",\"role\":\"assistant\"}", small.toString());
    }

    @Test
    void aLongObjectMovesToAHashedMapAndKeepsItsOrder() throws Exception {
        SmallObjectMap.Members members = new SmallObjectMap.Members();
        for (int i = 0; i < 3 * SmallObjectMap.MAX; i++) {
            assertTrue(members.add("m" + i, IntNode.valueOf(i)));
        }
        assertFalse(members.add("m" + SmallObjectMap.MAX, IntNode.valueOf(0)));
        ObjectNode object = members.object();
        List<String> names = new ArrayList<>(object.propertyNames());
        for (int i = 0; i < names.size(); i++) {
            assertEquals("m" + i, names.get(i));
        }
        java.lang.reflect.Field children = ObjectNode.class.getDeclaredField("_children");
        children.setAccessible(true);
        assertInstanceOf(LinkedHashMap.class, children.get(object));
        SmallObjectMap.Members few = new SmallObjectMap.Members();
        few.add("a", IntNode.valueOf(1));
        assertInstanceOf(SmallObjectMap.class, children.get(few.object()));
    }

    @Test
    void anIteratorOvertakenByAChangeSaysSo() {
        SmallObjectMap map = new SmallObjectMap();
        map.put("a", IntNode.valueOf(1));
        map.put("b", IntNode.valueOf(2));
        Iterator<Map.Entry<String, JsonNode>> it = map.entrySet().iterator();
        it.next();
        map.put("c", IntNode.valueOf(3));
        assertThrows(ConcurrentModificationException.class, it::next);
        Iterator<Map.Entry<String, JsonNode>> again = map.entrySet().iterator();
        assertThrows(IllegalStateException.class, again::remove);
    }
}
