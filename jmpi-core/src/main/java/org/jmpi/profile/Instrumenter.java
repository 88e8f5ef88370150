package org.jmpi.profile;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_String;
import static java.lang.constant.ConstantDescs.CD_void;

import java.lang.classfile.ClassBuilder;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.MethodElement;
import java.lang.classfile.MethodModel;
import java.lang.classfile.TypeKind;
import java.lang.classfile.attribute.DeprecatedAttribute;
import java.lang.classfile.attribute.ExceptionsAttribute;
import java.lang.classfile.attribute.MethodParametersAttribute;
import java.lang.classfile.attribute.RuntimeVisibleAnnotationsAttribute;
import java.lang.classfile.attribute.RuntimeVisibleParameterAnnotationsAttribute;
import java.lang.classfile.attribute.SignatureAttribute;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.reflect.AccessFlag;
import java.util.Set;

/**
 * Intercepts the MPI calls of package {@code mpi} (the PMPI scheme, done on the class files as they are loaded): every
 * public, concrete method of a public class of {@code mpi} that declares {@code MPIException} is renamed
 * {@code pmpi$<name>} (private) and replaced by a method of the original name and signature that calls
 * {@link Hooks#before}, then the original, then {@link Hooks#after} (or {@link Hooks#failed} and rethrows). Classes
 * users extend ({@code UserFunction}, {@code Struct} and its subclasses) are left alone. Done only when a tool is
 * requested, by the agent ({@link Agent}, processes mode) or by the ranks' class loaders (threads mode); otherwise the
 * classes are loaded as built and the interface costs nothing.
 *
 * <p>Threading: stateless.
 */
public final class Instrumenter {
    /** Prefix of the renamed originals. */
    public static final String PREFIX = "pmpi$";
    private static final ClassDesc HOOKS = ClassDesc.of("org.jmpi.profile.Hooks");
    private static final ClassDesc MPI_EXCEPTION = ClassDesc.of("mpi.MPIException");
    private static final ClassDesc THROWABLE = ClassDesc.of("java.lang.Throwable");
    private static final MethodTypeDesc BEFORE = MethodTypeDesc.of(CD_Object, CD_String, CD_Object,
            CD_Object.arrayType());
    private static final MethodTypeDesc AFTER = MethodTypeDesc.of(CD_void, CD_Object, CD_Object);
    private static final MethodTypeDesc FAILED = MethodTypeDesc.of(CD_void, CD_Object, THROWABLE);
    private static final Set<String> USER_EXTENDED = Set.of("mpi/UserFunction", "mpi/Struct");
    /**
     * The facade's package as a prefix of internal names. A constant, so that building jmpi-mpj, which moves the
     * facade to {@code org.jmpi.mpj.ompi} (string constants included), moves it too: the lengths below follow.
     */
    private static final String PACKAGE = "mpi/";

    private Instrumenter() {}

    /**
     * The class file {@code bytes} of class {@code internalName} ({@code mpi/Comm}) with its MPI calls intercepted,
     * or null when it is not a class of package {@code mpi} or has none.
     */
    public static byte[] transform(String internalName, byte[] bytes) {
        if (internalName == null || !internalName.startsWith(PACKAGE)
                || internalName.indexOf('/', PACKAGE.length()) >= 0 || internalName.indexOf('$') >= 0) {
            return null;
        }
        ClassFile cf = ClassFile.of();
        ClassModel cm = cf.parse(bytes);
        if (cm.flags().has(AccessFlag.INTERFACE) || !cm.flags().has(AccessFlag.PUBLIC)
                || USER_EXTENDED.contains(internalName)
                || cm.superclass().map(s -> USER_EXTENDED.contains(s.asInternalName())).orElse(false)
                || cm.methods().stream().noneMatch(Instrumenter::intercepted)) {
            return null;
        }
        ClassDesc owner = cm.thisClass().asSymbol();
        String simple = internalName.substring(PACKAGE.length());
        return cf.transformClass(cm, (clb, ce) -> {
            if (ce instanceof MethodModel mm && intercepted(mm)) {
                renamedOriginal(clb, mm);
                wrapper(clb, owner, simple + "." + mm.methodName().stringValue(), mm);
            } else {
                clb.with(ce);
            }
        });
    }

    /** Public, concrete, declared by the source (not a bridge), and declares {@code MPIException}. */
    static boolean intercepted(MethodModel mm) {
        String name = mm.methodName().stringValue();
        if (!mm.flags().has(AccessFlag.PUBLIC) || mm.flags().has(AccessFlag.ABSTRACT)
                || mm.flags().has(AccessFlag.NATIVE) || mm.flags().has(AccessFlag.SYNTHETIC)
                || mm.flags().has(AccessFlag.BRIDGE) || name.startsWith("<") || mm.code().isEmpty()) {
            return false;
        }
        return mm.findAttribute(java.lang.classfile.Attributes.exceptions())
                .map(ea -> ea.exceptions().stream().anyMatch(c -> c.asSymbol().equals(MPI_EXCEPTION)))
                .orElse(false);
    }

    private static void renamedOriginal(ClassBuilder clb, MethodModel mm) {
        int flags = mm.flags().flagsMask();
        flags &= ~(ClassFile.ACC_PUBLIC | ClassFile.ACC_PROTECTED | ClassFile.ACC_VARARGS);
        flags |= ClassFile.ACC_PRIVATE | ClassFile.ACC_SYNTHETIC;
        clb.withMethod(PREFIX + mm.methodName().stringValue(), mm.methodTypeSymbol(), flags, mb -> {
            for (MethodElement e : mm) {
                if (!(e instanceof java.lang.classfile.AccessFlags)) {
                    mb.with(e);
                }
            }
        });
    }

    private static void wrapper(ClassBuilder clb, ClassDesc owner, String callName, MethodModel mm) {
        int flags = mm.flags().flagsMask() & ~ClassFile.ACC_SYNCHRONIZED;
        boolean isStatic = mm.flags().has(AccessFlag.STATIC);
        MethodTypeDesc type = mm.methodTypeSymbol();
        String original = PREFIX + mm.methodName().stringValue();
        clb.withMethod(mm.methodName().stringValue(), type, flags, mb -> {
            for (MethodElement e : mm) {
                if (e instanceof ExceptionsAttribute || e instanceof SignatureAttribute
                        || e instanceof RuntimeVisibleAnnotationsAttribute
                        || e instanceof RuntimeVisibleParameterAnnotationsAttribute
                        || e instanceof MethodParametersAttribute || e instanceof DeprecatedAttribute) {
                    mb.with(e);
                }
            }
            mb.withCode(cb -> body(cb, owner, callName, original, type, isStatic));
        });
    }

    private static void body(CodeBuilder cb, ClassDesc owner, String callName, String original,
            MethodTypeDesc type, boolean isStatic) {
        int n = type.parameterCount();
        int argsSlot = cb.allocateLocal(TypeKind.REFERENCE);
        int tokenSlot = cb.allocateLocal(TypeKind.REFERENCE);
        cb.loadConstant(n);
        cb.anewarray(CD_Object);
        cb.astore(argsSlot);
        for (int i = 0; i < n; i++) {
            TypeKind k = TypeKind.from(type.parameterType(i));
            cb.aload(argsSlot);
            cb.loadConstant(i);
            cb.loadLocal(k, cb.parameterSlot(i));
            box(cb, k);
            cb.aastore();
        }
        cb.loadConstant(callName);
        if (isStatic) {
            cb.aconst_null();
        } else {
            cb.aload(cb.receiverSlot());
        }
        cb.aload(argsSlot);
        cb.invokestatic(HOOKS, "before", BEFORE);
        cb.astore(tokenSlot);
        TypeKind rk = TypeKind.from(type.returnType());
        int resultSlot = rk == TypeKind.VOID ? -1 : cb.allocateLocal(rk);
        cb.trying(b -> {
            if (!isStatic) {
                b.aload(b.receiverSlot());
            }
            for (int i = 0; i < n; i++) {
                b.loadLocal(TypeKind.from(type.parameterType(i)), b.parameterSlot(i));
            }
            if (isStatic) {
                b.invokestatic(owner, original, type);
            } else {
                b.invokespecial(owner, original, type);
            }
            if (rk == TypeKind.VOID) {
                b.aload(tokenSlot);
                b.aconst_null();
                b.invokestatic(HOOKS, "after", AFTER);
                b.return_();
            } else {
                b.storeLocal(rk, resultSlot);
                b.aload(tokenSlot);
                b.loadLocal(rk, resultSlot);
                box(b, rk);
                b.invokestatic(HOOKS, "after", AFTER);
                b.loadLocal(rk, resultSlot);
                b.return_(rk);
            }
        }, c -> c.catchingAll(h -> {
            int ex = h.allocateLocal(TypeKind.REFERENCE);
            h.astore(ex);
            h.aload(tokenSlot);
            h.aload(ex);
            h.invokestatic(HOOKS, "failed", FAILED);
            h.aload(ex);
            h.athrow();
        }));
    }

    /** Boxes the value of kind {@code k} on top of the stack (references stay as they are). */
    private static void box(CodeBuilder cb, TypeKind k) {
        ClassDesc boxed;
        switch (k) {
            case INT -> boxed = ClassDesc.of("java.lang.Integer");
            case LONG -> boxed = ClassDesc.of("java.lang.Long");
            case FLOAT -> boxed = ClassDesc.of("java.lang.Float");
            case DOUBLE -> boxed = ClassDesc.of("java.lang.Double");
            case BOOLEAN -> boxed = ClassDesc.of("java.lang.Boolean");
            case BYTE -> boxed = ClassDesc.of("java.lang.Byte");
            case SHORT -> boxed = ClassDesc.of("java.lang.Short");
            case CHAR -> boxed = ClassDesc.of("java.lang.Character");
            default -> {
                return;
            }
        }
        cb.invokestatic(boxed, "valueOf", MethodTypeDesc.of(boxed, k.upperBound()));
    }
}
