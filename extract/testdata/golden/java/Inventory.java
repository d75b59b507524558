/*
 * Copyright 2024 Acme. Licensed under the Apache License 2.0.
 */
package com.acme.shop;

import java.util.ArrayList;
import java.util.List;
import java.util.Map.Entry;
import java.util.concurrent.*;
import static java.util.Objects.requireNonNull;
import static java.lang.Math.*;

/**
 * Inventory keeps items on shelves.
 *
 * <p>It is safe for concurrent use.
 */
@SuppressWarnings({
    "unchecked",
    "rawtypes"
})
public class Inventory<T extends Item> extends AbstractStore implements Iterable<T>, AutoCloseable {
    private static final int DEFAULT_SIZE = 16;
    private final List<T> items = new ArrayList<>(DEFAULT_SIZE);
    private final Runnable onClose = () -> log("closed");

    /** Creates an empty inventory. */
    public Inventory() {
        this(DEFAULT_SIZE);
    }

    // Creates an inventory with room for size items.
    protected Inventory(int size) {
        super(size);
        Registry.register(this);
    }

    /**
     * Adds an item.
     * @param item the item
     */
    @Override
    public void add(T item) {
        items.add(requireNonNull(item));
    }

    /** Adds all items; an overload of {@link #add(Item)}. */
    public void add(List<? extends T> more) {
        more.forEach(this::add);
        more.stream().map(Item::name).forEach(n -> log(n));
    }

    public static <K, V> Inventory<Item> of(Entry<K, V>... entries) {
        Inventory<Item> inv = new Inventory<>();
        for (Entry<K, V> e : entries) {
            inv.add(new Item(String.valueOf(e.getKey()), 0));
        }
        return inv;
    }

    @Override
    public java.util.Iterator<T> iterator() {
        return new java.util.Iterator<T>() {
            private int i;

            @Override
            public boolean hasNext() {
                return i < size();
            }

            @Override
            public T next() {
                return items.get(i++);
            }
        };
    }

    int size() {
        return items.size();
    }

    private static void log(String msg) {
        System.out.println(msg);
    }

    @Override
    public void close() {
        onClose.run();
        class Closer {
            void closeAll() {
                items.clear();
            }
        }
        new Closer().closeAll();
    }

    /** A shelf of the inventory; an inner class. */
    public class Shelf {
        final String label;

        Shelf(String label) {
            this.label = label;
            Inventory.this.items.size();
        }
    }

    /* A builder: a static nested class. */
    public static final class Builder {
        private int size = max(1, DEFAULT_SIZE);

        public Builder size(int size) {
            this.size = size;
            return this;
        }

        public Inventory<Item> build() {
            Inventory<Item> inv = new Inventory<>(size);
            inv.new Shelf("default");
            return inv;
        }
    }
}

/** Kinds of item. */
enum Kind implements Labeled {
    TOOL("tool"),
    FOOD("food") {
        @Override
        public String label() {
            return "edible " + super.label();
        }
    };

    private final String label;

    Kind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}

interface Labeled {
    String label();

    default String upper() {
        return label().toUpperCase();
    }
}

/** An item with a name and a price in cents. */
record Item(String name, int price) implements Comparable<Item> {
    Item {
        if (price < 0) throw new IllegalArgumentException("price");
    }

    public int compareTo(Item o) {
        return Integer.compare(price, o.price);
    }

    // Unnamed patterns in a multi-pattern case label (Java 22) are beyond
    // the grammar: a syntax error, with the structure around it intact.
    static int weight(Object o) {
        return switch (o) {
            case Integer _, Long _ -> Integer.BYTES;
            default -> Objects.hashCode(o);
        };
    }
}

@interface Audited {
    String by() default "";
}
