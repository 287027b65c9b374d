package it.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SmokeTest {

    @Test
    void the_project_has_tests_of_its_own() {
        assertEquals(4, 2 + 2);
    }
}
