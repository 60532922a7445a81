package io.mapsketch.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.function.Executable;

/** Assertions on this module's file faults. */
final class Faults {

    private Faults() {}

    /** Asserts that {@code action} throws a {@link FileFault} of {@code reason}, and returns it. */
    static FileFault assertFault(FileFault.Reason reason, Executable action) {
        FileFault fault = assertThrows(FileFault.class, action);
        assertEquals(reason, fault.reason(), fault::getMessage);
        return fault;
    }

    /** As {@link #assertFault(FileFault.Reason, Executable)}, with a message for the failure. */
    static FileFault assertFault(FileFault.Reason reason, Executable action, String message) {
        FileFault fault = assertThrows(FileFault.class, action, message);
        assertEquals(reason, fault.reason(), () -> message + ": " + fault.getMessage());
        return fault;
    }
}
