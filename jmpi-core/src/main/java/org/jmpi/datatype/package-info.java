/**
 * Datatype layouts and user memory as packed byte streams.
 *
 * <h2>Pieces</h2>
 * <ul>
 *   <li>{@link org.jmpi.datatype.TypeDescriptor}: one datatype, immutable: base kind (the Java buffer it is used
 *       with), bounds (lb/extent, true lb/extent, with MPI's sticky markers), the compiled plan (which bytes of one
 *       element hold data, in type-map order) and the {@link org.jmpi.datatype.Signature} (which
 *       {@link org.jmpi.datatype.Primitive}s the packed bytes are). Built by the constructors
 *       {@code contiguous/hvector/hindexed/struct/resized}; package {@code mpi} converts its base-unit arguments to
 *       bytes.</li>
 *   <li>{@code Plan} (package-private): a tree of run lists, repeats and sequences; compact for huge counts (a
 *       million-block vector is one node) and seekable to any byte of the packed stream.</li>
 *   <li>{@link org.jmpi.datatype.MessageData}: what point-to-point moves: {@code count} elements of a type in user
 *       memory, seen as a packed stream that can be read or written in any byte range (so in chunks).
 *       {@link org.jmpi.datatype.MessageData.SegmentData} for contiguous layouts (zero copy: {@code contiguous()}
 *       returns the memory), {@link org.jmpi.datatype.PlanData} for the rest, {@link org.jmpi.datatype.BooleanPlanData}
 *       for {@code boolean[]}.</li>
 *   <li>{@link org.jmpi.datatype.BufferView}: (user buffer, count, type) to a {@code MessageData}, with every check a
 *       user can fail (ERR_BUFFER, ERR_COUNT, ERR_TYPE), so nothing below ever indexes out of bounds. Any array or
 *       buffer is raw memory whatever the datatype (bounds in bytes), as in Open MPI's bindings.</li>
 *   <li>{@link org.jmpi.datatype.DirectBuffers}: the direct buffers whose whole extent jmpi knows, so that a slice of
 *       one may be reached before its start by negative displacements.</li>
 * </ul>
 *
 * <h2>For reductions and other collectives</h2>
 * The packed stream of {@code count} elements is {@code count * size} bytes holding the type's signature
 * {@code count} times over, in native byte order. So a reduction works on packed bytes:
 * <ol>
 *   <li>pack each contribution into scratch memory with {@code data.packTo(0, scratch, 0, data.bytes())} (or use
 *       {@code data.contiguous()} directly when it is not null: no copy);</li>
 *   <li>combine packed streams primitive by primitive: {@code type.signature().uniform()} gives the one
 *       {@link org.jmpi.datatype.Primitive} every non-struct type consists of (whatever its layout), so the stream
 *       is {@code bytes / uniform.bytes} values of it; a pair type ({@code Primitive.isPair()}) packs as its value
 *       followed by its {@code int} index with no padding ({@code SHORT_INT} = 6 bytes, {@code DOUBLE_INT} = 12);
 *       a mixed signature (a struct) lists its {@code (kind, count)} entries in
 *       {@code signature().entries()} (null past {@link org.jmpi.datatype.Signature#MAX_ENTRIES} entries);</li>
 *   <li>unpack the result with {@code data.unpackFrom(0, scratch, 0, n)} into the receive buffer's
 *       {@code MessageData}.</li>
 * </ol>
 * A user function ({@code mpi.UserFunction}) expects the data in the type's memory layout, holes included: make a
 * scratch of {@code span(count)} bytes, view it with {@code PlanData.over(scratch, -span[0], type, count)} and
 * unpack into it, call the function, then pack back. {@link org.jmpi.datatype.PlanData#visitRuns} lists the
 * contiguous runs behind any packed range, for code that wants to work in place.
 *
 * <p>May import: the JDK and {@code org.jmpi.runtime} (error classes only).
 */
package org.jmpi.datatype;
