@file:JvmName("Inventories")

package com.acme.shop

import kotlin.math.max
import java.util.concurrent.*
import com.acme.log.Logger as Log
import com.acme.shop.Kind.TOOL

/**
 * Inventory keeps items on shelves.
 *
 * @param T the item type
 */
@Suppress("UNCHECKED_CAST")
open class Inventory<T : Item>(private val size: Int) : StoreBase(size), Iterable<T>, AutoCloseable {
    private val items = ArrayList<T>(max(size, DEFAULT_SIZE))
    private val onClose: () -> Unit = { log("closed") }

    /** Creates an inventory of the default size. */
    constructor() : this(DEFAULT_SIZE) {
        Registry.register(this)
    }

    init {
        require(size >= 0) { "size must not be negative" }
    }

    // Adds an item.
    fun add(item: T): Inventory<T> {
        items.add(item)
        return this
    }

    /** Adds all items; an overload. */
    fun add(more: List<T>) {
        more.filter { it.price > 0 }.forEach(::add)
        more.map { normalize(it) }.forEach { this.add(it) }
    }

    override fun iterator(): Iterator<T> = object : Iterator<T> {
        private var i = 0
        override fun hasNext(): Boolean = i < items.size
        override fun next(): T = items[i++].also { touch(it) }
    }

    internal fun touch(item: T) = log(item.name)

    override fun close() {
        onClose()
        fun closeAll() {
            items.clear()
        }
        closeAll()
    }

    /** A shelf; an inner class sees the inventory. */
    inner class Shelf(val label: String) {
        fun size() = this@Inventory.items.size
    }

    /* A builder: a nested class. */
    class Builder {
        private var size = DEFAULT_SIZE
        fun size(size: Int) = apply { this.size = size }
        fun build(): Inventory<Item> = Inventory<Item>(size).also { it.Shelf("default") }
    }

    companion object {
        const val DEFAULT_SIZE = 16

        @JvmStatic
        fun <T : Item> of(vararg items: T): Inventory<T> = Inventory<T>().apply { items.forEach(::add) }

        private fun log(msg: String) = Log.info(msg)
    }
}

/** An item with a name and a price in cents. */
data class Item(val name: String, val price: Int) : Comparable<Item> {
    override fun compareTo(other: Item): Int = price.compareTo(other.price)
}

enum class Kind(val label: String) : Labeled {
    TOOL("tool"),
    FOOD("food") {
        override fun upper() = "EDIBLE " + super.upper()
    };

    override fun label() = label
}

interface Labeled {
    fun label(): String
    fun upper(): String = label().uppercase()
}

sealed interface Result<out T>

object Registry {
    private val all = mutableListOf<Any>()
    fun register(x: Any) = all.add(x)
}

typealias Shelves = Map<String, Inventory<Item>>

/** Extension function: the receiver type is the parent. */
fun <T : Item> Inventory<T>.total(): Int = sumOf { it.price }

fun String?.orDefault(): String = this ?: Kind.TOOL.label

private fun normalize(item: Item) = item.copy(name = item.name.trim())

val defaultInventory = Inventory.of(Item("hammer", 1200))
