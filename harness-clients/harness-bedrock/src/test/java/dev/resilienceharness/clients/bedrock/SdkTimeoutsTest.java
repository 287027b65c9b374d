package dev.resilienceharness.clients.bedrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;

class SdkTimeoutsTest {

    private static final Duration S3 = Duration.ofSeconds(3);
    private static final Duration S10 = Duration.ofSeconds(10);

    @Test
    void aClientWithoutTimeoutsWaitsForTheSocketReadTimeoutAndSeesASocketTimeout() {
        SdkTimeouts t = SdkTimeouts.of(ClientOverrideConfiguration.builder().build());
        assertEquals(Duration.ofSeconds(30), t.forAttempt());
        assertInstanceOf(SocketTimeoutException.class, t.timedOut(t.forAttempt()));
    }

    @Test
    void theShortestTimeoutRunsOutAndIsTheSdksOwnException() {
        SdkTimeouts attempt = SdkTimeouts.of(ClientOverrideConfiguration.builder().apiCallAttemptTimeout(S3)
                .apiCallTimeout(S10).build());
        assertEquals(S3, attempt.forAttempt());
        assertEquals(3000L, assertThrows(ApiCallAttemptTimeoutException.class, () -> attempt.timedOut(S3))
                .getMessage().contains("3000") ? 3000L : -1L);
        SdkTimeouts call = SdkTimeouts.of(ClientOverrideConfiguration.builder().apiCallAttemptTimeout(S10)
                .apiCallTimeout(S3).build());
        assertEquals(S3, call.forAttempt());
        assertThrows(ApiCallTimeoutException.class, () -> call.timedOut(S3));
        SdkTimeouts longer = SdkTimeouts.of(ClientOverrideConfiguration.builder()
                .apiCallAttemptTimeout(Duration.ofMinutes(2)).build());
        assertInstanceOf(SocketTimeoutException.class, longer.timedOut(longer.forAttempt()),
                "a socket read that runs out first is the socket's");
    }

    @Test
    void aBodyReadPastTheTimeoutIsTheSdksException() throws IOException {
        SdkTimeouts attempt = new SdkTimeouts(SdkTimeouts.SOCKET_READ, S3, null);
        InputStream late = new FilterInputStream(new ByteArrayInputStream(new byte[0])) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                throw new SocketTimeoutException("late");
            }
        };
        assertThrows(ApiCallAttemptTimeoutException.class, () -> attempt.read(late));
        SdkTimeouts socket = new SdkTimeouts(SdkTimeouts.SOCKET_READ, null, null);
        assertEquals(3, attempt.read(new ByteArrayInputStream(new byte[] {1, 2, 3})).readAllBytes().length);
        assertThrows(SocketTimeoutException.class, () -> socket.read(late));
    }
}
