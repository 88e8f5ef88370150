/**
 * Present so that programs written for MPJ Express that {@code import mpjdev.*;} without using it compile. MPJ
 * Express's device layer is not part of jmpi; {@link mpjdev.MPJDevException} is the one type kept.
 */
package mpjdev;
