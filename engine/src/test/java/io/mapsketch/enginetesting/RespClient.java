package io.mapsketch.enginetesting;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A binary-safe client of the Redis protocol (RESP 2) for tests: each command is sent as an array of
 * bulk strings and its one reply read back. Replies: a simple string as a {@code String}, an integer as
 * a {@code Long}, a bulk string as {@code byte[]} ({@code null} for a missing key); an error reply
 * throws. Enough for {@code GET}, {@code SET}, {@code PFADD}, {@code PFCOUNT} and {@code PFMERGE}.
 */
public final class RespClient implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RespClient(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(30_000);
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Sends a command whose arguments are strings (UTF-8) or byte arrays, and returns the reply. */
    public Object command(Object... arguments) throws IOException {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(("*" + arguments.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (Object argument : arguments) {
            byte[] bytes =
                    argument instanceof byte[] raw ? raw : argument.toString().getBytes(StandardCharsets.UTF_8);
            request.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            request.writeBytes(bytes);
            request.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.write(request.toByteArray());
        out.flush();
        return reply();
    }

    /** {@code PFADD key items...}: whether a register changed. */
    public boolean pfadd(String key, byte[]... items) throws IOException {
        Object[] arguments = new Object[items.length + 2];
        arguments[0] = "PFADD";
        arguments[1] = key;
        System.arraycopy(items, 0, arguments, 2, items.length);
        return (Long) command(arguments) == 1;
    }

    /** {@code PFCOUNT keys...}. */
    public long pfcount(String... keys) throws IOException {
        Object[] arguments = new Object[keys.length + 1];
        arguments[0] = "PFCOUNT";
        System.arraycopy(keys, 0, arguments, 1, keys.length);
        return (Long) command(arguments);
    }

    /** {@code GET key}: its bytes, or {@code null}. */
    public byte[] get(String key) throws IOException {
        return (byte[]) command("GET", key);
    }

    /** {@code SET key value}. */
    public void set(String key, byte[] value) throws IOException {
        command("SET", key, value);
    }

    private Object reply() throws IOException {
        int type = in.read();
        String line = line();
        return switch (type) {
            case '+' -> line;
            case '-' -> throw new IOException("redis-server answered an error: " + line);
            case ':' -> Long.parseLong(line);
            case '$' -> bulk(Integer.parseInt(line));
            case -1 -> throw new EOFException("redis-server closed the connection");
            default -> throw new IOException("unexpected reply type '" + (char) type + "' " + line);
        };
    }

    private byte[] bulk(int length) throws IOException {
        if (length < 0) {
            return null;
        }
        byte[] bytes = in.readNBytes(length);
        if (bytes.length != length || in.read() != '\r' || in.read() != '\n') {
            throw new EOFException("a bulk reply of " + length + " bytes was cut off");
        }
        return bytes;
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new EOFException("redis-server closed the connection");
            }
            line.append((char) c);
        }
        in.read();
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
