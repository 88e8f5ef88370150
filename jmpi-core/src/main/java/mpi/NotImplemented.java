package mpi;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an API member whose body only reports that it is not implemented yet. {@code docs/api-status.md} is
 * generated from these marks; a test checks that every body calling {@link Unsupported#of} carries one.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
@interface NotImplemented {}
