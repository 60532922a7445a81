package io.mapsketch.kernels;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Spark's own {@code org.apache.spark.util.sketch.Murmur3_x86_32}, the reference of
 * {@link Murmur3x86x32}: the class is package-private in spark-sketch, so its static methods are
 * reached by reflection (the tests run on the class path, where that is allowed).
 */
final class SparkMurmur3 {

    private static final String PACKAGE = "org.apache.spark.util.sketch.";

    private static final MethodHandle HASH_INT = method("hashInt", int.class, int.class);
    private static final MethodHandle HASH_LONG = method("hashLong", long.class, int.class);
    private static final MethodHandle HASH_BYTES =
            method("hashUnsafeBytes", Object.class, long.class, int.class, int.class);
    private static final MethodHandle HASH_BYTES2 =
            method("hashUnsafeBytes2", Object.class, long.class, int.class, int.class);
    private static final long BYTE_ARRAY_OFFSET = byteArrayOffset();

    private SparkMurmur3() {}

    static int hashInt(int value, int seed) throws Throwable {
        return (int) HASH_INT.invokeExact(value, seed);
    }

    static int hashLong(long value, int seed) throws Throwable {
        return (int) HASH_LONG.invokeExact(value, seed);
    }

    /** {@code hashUnsafeBytes}: what Spark's Bloom filters and Count-Min sketch call. */
    static int hashUnsafeBytes(byte[] bytes, int seed) throws Throwable {
        return (int) HASH_BYTES.invokeExact((Object) bytes, BYTE_ARRAY_OFFSET, bytes.length, seed);
    }

    /** {@code hashUnsafeBytes2}: the standard tail. */
    static int hashUnsafeBytes2(byte[] bytes, int seed) throws Throwable {
        return (int) HASH_BYTES2.invokeExact((Object) bytes, BYTE_ARRAY_OFFSET, bytes.length, seed);
    }

    private static MethodHandle method(String name, Class<?>... parameters) {
        try {
            Method method = Class.forName(PACKAGE + "Murmur3_x86_32").getDeclaredMethod(name, parameters);
            method.setAccessible(true);
            return MethodHandles.lookup().unreflect(method).asType(MethodType.methodType(int.class, parameters));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("spark-sketch has no Murmur3_x86_32." + name, e);
        }
    }

    private static long byteArrayOffset() {
        try {
            Field field = Class.forName(PACKAGE + "Platform").getDeclaredField("BYTE_ARRAY_OFFSET");
            field.setAccessible(true);
            return field.getInt(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("spark-sketch has no Platform.BYTE_ARRAY_OFFSET", e);
        }
    }
}
