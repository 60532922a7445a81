package io.mapsketch.spark;

import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/** Reads a function's constant arguments when the query is analysed, refusing each bad one by name. */
final class Arguments {

    private Arguments() {}

    /** Refuses a call with another number of arguments than {@code allowed} says. */
    static void requireCount(String function, List<Expression> arguments, int least, int most, String usage) {
        if (arguments.size() < least || arguments.size() > most) {
            throw new IllegalArgumentException(function + " takes " + usage + "; it was given " + arguments.size()
                    + " argument" + (arguments.size() == 1 ? "" : "s"));
        }
    }

    /** A constant whole number. */
    static long wholeNumber(String function, Expression argument, String name) {
        Object value = constant(function, argument, name);
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Decimal decimal
                && decimal.toJavaBigDecimal().stripTrailingZeros().scale() <= 0) {
            return decimal.toLong();
        }
        throw new IllegalArgumentException(
                function + ": " + name + " = " + value + ", must be a whole number (" + argument.sql() + ")");
    }

    /** A constant whole number that fits an {@code int}. */
    static int wholeInt(String function, Expression argument, String name) {
        long value = wholeNumber(function, argument, name);
        if (value != (int) value) {
            throw new IllegalArgumentException(function + ": " + name + " = " + value + ", must be an int");
        }
        return (int) value;
    }

    /** A constant number. */
    static double number(String function, Expression argument, String name) {
        Object value = constant(function, argument, name);
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        if (value instanceof Decimal decimal) {
            return decimal.toDouble();
        }
        throw new IllegalArgumentException(
                function + ": " + name + " = " + value + ", must be a number (" + argument.sql() + ")");
    }

    /** A constant string. */
    static String string(String function, Expression argument, String name) {
        Object value = constant(function, argument, name);
        if (value instanceof UTF8String string) {
            return string.toString();
        }
        throw new IllegalArgumentException(
                function + ": " + name + " = " + value + ", must be a string (" + argument.sql() + ")");
    }

    private static Object constant(String function, Expression argument, String name) {
        if (!argument.foldable()) {
            throw new IllegalArgumentException(
                    function + ": " + name + " = " + argument.sql() + ", must be a constant (a literal)");
        }
        Object value = argument.eval(null);
        if (value == null) {
            throw new IllegalArgumentException(function + ": " + name + " is null, must be a constant value");
        }
        return value;
    }
}
