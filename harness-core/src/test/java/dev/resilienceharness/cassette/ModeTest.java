package dev.resilienceharness.cassette;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ModeTest {

    @Test
    void each_mode_has_the_spelling_users_give() {
        assertEquals("replay", Mode.REPLAY.userName());
        assertEquals("record", Mode.RECORD.userName());
        assertEquals("record-missing", Mode.RECORD_MISSING.userName());
    }

    @Test
    void reads_every_spelling_back() {
        for (Mode m : Mode.values()) {
            assertEquals(m, Mode.fromUser(m.userName()));
        }
    }

    @Test
    void other_spellings_are_no_mode() {
        assertNull(Mode.fromUser("record_missing"));
        assertNull(Mode.fromUser("RECORD"));
        assertNull(Mode.fromUser("Replay"));
        assertNull(Mode.fromUser(""));
        assertNull(Mode.fromUser(null));
    }
}
