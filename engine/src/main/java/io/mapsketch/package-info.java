/**
 * What every sketch shares: {@link io.mapsketch.Sketch} (and {@link io.mapsketch.Sketch#open}, which
 * opens any kind), the merge contract ({@link io.mapsketch.Mergeable}), the builders' common options
 * ({@link io.mapsketch.SketchBuilder}), how a file is opened ({@link io.mapsketch.OpenMode},
 * {@link io.mapsketch.CreateOption}), the file exceptions ({@link io.mapsketch.SketchFileException})
 * and the refusal to combine unlike sketches ({@link io.mapsketch.IncompatibleSketchException}). The
 * sketches themselves, with their sizing formulas, are in one package per question:
 * {@code membership}, {@code frequency}, {@code cardinality} and {@code similarity}.
 *
 * <h2 id="keys">Keys</h2>
 *
 * Every sketch that takes keys takes them in the same forms, and the same bytes are the same key in
 * every form, so that a key added from a network buffer is found from a {@code String}:
 * <ul>
 *   <li>a {@code long}: its eight little-endian bytes;</li>
 *   <li>a {@code byte[]} range ({@code key, offset, length}) or a {@code MemorySegment} slice (heap,
 *       native or mapped): its bytes, read in place;</li>
 *   <li>a {@code CharSequence}: its UTF-8 bytes, as {@code String.getBytes(StandardCharsets.UTF_8)}
 *       gives them (an unpaired surrogate is {@code '?'});</li>
 *   <li>a batch: a {@code long[]}, {@code count} little-endian {@code long}s of a segment from a byte
 *       offset, or {@code count} ranges of one byte array ({@code data, offsets, lengths}), each key as
 *       the single-key form would take it;</li>
 *   <li>an Agrona {@code DirectBuffer} range: through the optional module {@code io.mapsketch.agrona}
 *       (artifact {@code mapsketch-agrona}), so that a user without Agrona does not need it.</li>
 * </ul>
 * A range outside its array or segment is refused with an {@link IndexOutOfBoundsException} before the
 * sketch changes.
 *
 * <p>Cost: one XXH3-64 of the key's bytes with the seed in the file's header (a {@code long}: a few
 * nanoseconds), then the sketch's own work. A {@code CharSequence} is encoded first, into a buffer the
 * sketch keeps for the calling thread (in a table of the sketch's, not a thread-local, read without a
 * fence). Batches hash 512 keys at a time ({@code long} keys with the SIMD kernel) into scratch space
 * the sketch lends to the call, and hand each step to the sketch's batch path. A single-key call
 * allocates nothing once the buffers are made.
 */
package io.mapsketch;
