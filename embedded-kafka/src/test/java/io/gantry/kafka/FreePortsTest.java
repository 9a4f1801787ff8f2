package io.gantry.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void portsComeFromBelowTheEphemeralRangeAndCanBeBound() throws Exception {
        int low = FreePorts.ephemeralLow();
        // A misread /proc file ("3": Files.readString returns only its first byte) would leave no range below it.
        assertTrue(low > 10_000 && low <= 65_535, "the ephemeral range starts at " + low);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            int p = FreePorts.one();
            assertTrue(p >= 1024 && p < low, p + " is outside the kernel's range for outgoing connections (from " + low + ")");
            assertTrue(seen.add(p), "the same port handed out twice in a row: " + p);
            try (ServerSocket s = new ServerSocket(p)) {
                assertEquals(p, s.getLocalPort());
            }
        }
    }

    @Test
    void aRunIsConsecutiveFreePortsAndSkipsOneInUse() throws Exception {
        int first = FreePorts.run(6);
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int p = first; p < first + 6; p++) {
                held.add(new ServerSocket(p));
            }
            // While all six are held, no run handed out may overlap them.
            for (int i = 0; i < 50; i++) {
                int other = FreePorts.run(3);
                assertFalse(other + 2 >= first && other <= first + 5, "run " + other + " overlaps the held " + first);
            }
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
        assertThrows(IllegalArgumentException.class, () -> FreePorts.run(0));
    }
}
