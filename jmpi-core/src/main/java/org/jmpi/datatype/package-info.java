/**
 * Datatype layouts ({@link org.jmpi.datatype.TypeDescriptor}: a plan of contiguous byte runs per element), user
 * buffers seen as packed byte streams ({@link org.jmpi.datatype.MessageData}), and the checks that turn a user's
 * buffer, count and datatype into one ({@link org.jmpi.datatype.BufferView}).
 *
 * <p>May import: the JDK and {@code org.jmpi.runtime} (error classes only).
 */
package org.jmpi.datatype;
