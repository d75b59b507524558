/* Copyright 2024 Acme. */
package com.acme
package shop

import scala.collection.mutable
import scala.concurrent.{ExecutionContext, Future => Fut, Await => _}
import scala.util._
import java.util.concurrent.atomic.AtomicInteger, java.time.Instant
import com.acme.log.Logger as Log
import com.acme.shop.Kind.*

/** Inventory keeps items on shelves.
  *
  * @tparam T the item type
  */
@deprecated("use Store", since = "2.0")
class Inventory[T <: Item](size: Int)(implicit ec: ExecutionContext)
    extends StoreBase(size)
    with Iterable[T]
    with AutoCloseable { self =>

  private val items = mutable.ArrayBuffer.empty[T]
  private val count = new AtomicInteger(0)

  /** Creates an inventory of the default size. */
  def this()(implicit ec: ExecutionContext) = this(Inventory.DefaultSize)

  // Adds an item.
  def add(item: T): this.type = {
    items += item
    count.incrementAndGet()
    this
  }

  /** Adds all items; an overload. */
  def add(more: Seq[T]): this.type = {
    more.filter(_.price > 0).foreach(add)
    more map normalize foreach { i => self.add(i) }
    this
  }

  override def iterator: Iterator[T] = new Iterator[T] {
    private var i = 0
    def hasNext: Boolean = i < items.size
    def next(): T = { i += 1; touch(items(i - 1)) }
  }

  private[shop] def touch(item: T): T = { Log.info(item.name); item }

  def addLater(item: T): Fut[Unit] = Fut {
    def run(): Unit = add(item)
    run()
  }

  override def close(): Unit = items.clear()

  /** A shelf: an inner class. */
  class Shelf(val label: String) {
    def size: Int = self.items.size
  }

  private def normalize(item: T): T = item
}

/** Companion: the factory. */
object Inventory {
  final val DefaultSize = 16

  def apply[T <: Item](items: T*)(implicit ec: ExecutionContext): Inventory[T] = {
    val inv = new Inventory[T](DefaultSize)
    items.foreach(inv.add)
    inv
  }

  /* A builder: a nested class. */
  final class Builder {
    private var size = DefaultSize
    def size(n: Int): Builder = { size = math.max(1, n); this }
    def build()(implicit ec: ExecutionContext): Inventory[Item] = new com.acme.shop.Inventory[Item](size)
  }
}

/** An item with a name and a price in cents. */
final case class Item(name: String, price: Int) extends Ordered[Item] {
  def compare(that: Item): Int = price.compare(that.price)
}

case object Empty

sealed trait Labeled { self: Product =>
  def label: String
  def upper: String = label.toUpperCase()
}

trait Repo[F[_], A] {
  def find(id: Long): F[Option[A]]
  protected def all(): F[Seq[A]]
}

enum Kind(val label: String) extends Labeled {
  case Tool extends Kind("tool")
  case Food extends Kind("food")
}

type Shelves = Map[String, Inventory[Item]]

given itemOrdering: Ordering[Item] = Ordering.by(_.price)

given Ordering[Kind] = Ordering.by(_.label)

extension (inv: Inventory[Item])
  def total: Int = inv.iterator.map(_.price).sum
  def cheapest: Option[Item] = inv.iterator.minOption

def report(inv: Inventory[Item]): String =
  val lines = inv.iterator.map(i => s"${i.name}: ${i.price}").toList
  lines.mkString("\n")

val defaultInventory = Inventory(Item("hammer", 1200))(ExecutionContext.global)
