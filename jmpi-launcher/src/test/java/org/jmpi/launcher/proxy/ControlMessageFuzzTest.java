package org.jmpi.launcher.proxy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;

/**
 * Fuzz target: the control channel between jmpirun and its host proxies ({@link ControlMessage#read}), fed with any
 * byte stream (a corrupt ssh session, a proxy of another version, a hostile peer). Every frame must decode or fail with
 * an {@link IOException} (the reader then treats the host as lost); nothing else may escape, and no length field may
 * make it allocate more than the frame limit.
 */
class ControlMessageFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void stream(byte[] data) {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
        for (int i = 0; i < 1000; i++) {
            try {
                ControlMessage.read(in);
            } catch (IOException endOrCorrupt) {
                return;
            }
        }
    }
}
