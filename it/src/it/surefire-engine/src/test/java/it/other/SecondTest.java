package it.other;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A second test class: surefire selects each class, and the scenarios must still run only once. */
class SecondTest {

    @Test
    void a_second_class_of_the_project_runs_too() {
        assertEquals("ok", "o" + "k");
    }
}
