package org.jmpi.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link LongTable} against a {@link HashMap}: random puts and removes over keys that collide in the table's slots
 * (small, negative, and far apart by multiples of large powers of two), through growth and the backward shifts of
 * deletion; after every step both hold the same mappings.
 */
class LongTableTest {
    private record Op(int kind, long key) {}

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Long> keys = Arbitraries.oneOf(Arbitraries.longs().between(-40, 40),
                Arbitraries.longs().between(1, 8).map(k -> k << 32 | 3), Arbitraries.longs().between(1, 8).map(k -> k << 40),
                Arbitraries.longs());
        return Combinators.combine(Arbitraries.integers().between(0, 4), keys).as(Op::new).list().ofMaxSize(400);
    }

    @Property(tries = 300)
    void behavesAsAMap(@ForAll("ops") List<Op> ops) {
        LongTable<String> table = new LongTable<>();
        Map<Long, String> model = new HashMap<>();
        int step = 0;
        for (Op op : ops) {
            long k = op.key();
            String v = "v" + step++;
            if (k == 0) {
                assertThat(table.get(0)).isNull();
                continue;
            }
            switch (op.kind()) {
                case 0, 1 -> {
                    table.put(k, v);
                    model.put(k, v);
                }
                case 2 -> assertThat(table.remove(k)).isEqualTo(model.remove(k));
                case 3 -> {
                    String current = model.get(k);
                    boolean removed = current != null && table.remove(k, current);
                    assertThat(removed).isEqualTo(current != null);
                    model.remove(k);
                }
                default -> assertThat(table.remove(k, "not there")).isFalse();
            }
            for (Map.Entry<Long, String> e : model.entrySet()) {
                assertThat(table.get(e.getKey())).as("key %d", e.getKey()).isSameAs(e.getValue());
            }
            assertThat(table.values()).containsExactlyInAnyOrderElementsOf(model.values());
            assertThat(table.isEmpty()).isEqualTo(model.isEmpty());
        }
    }

    @Test
    void consecutiveIdsInAndOutOfOrder() {
        LongTable<Long> table = new LongTable<>();
        for (long id = 1; id <= 1000; id++) {
            table.put(id, id);
            if (id % 3 == 0) {
                assertThat(table.remove(id - 1)).isEqualTo(id - 1); // out of order: the older one goes
            }
        }
        for (long id = 1; id <= 1000; id++) {
            assertThat(table.get(id)).isEqualTo(id % 3 == 2 ? null : id);
        }
    }

    @Test
    void refusesKeyZeroAndNullValues() {
        LongTable<String> table = new LongTable<>();
        assertThatThrownBy(() -> table.put(0, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> table.put(1, null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(table.remove(0)).isNull();
        assertThat(table.isEmpty()).isTrue();
    }
}
