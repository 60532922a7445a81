/**
 * Sketches of other systems in and out: each foreign format has one entry point that imports its
 * bytes into a mapped sketch file which keeps hashing keys the way its origin does, and exports such
 * a file back to the origin's bytes. What each format keeps and loses is in {@code docs/interop.md}.
 */
package io.mapsketch.interop;
