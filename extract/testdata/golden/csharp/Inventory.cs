// Copyright 2024 Acme.
using System;
using System.Collections.Generic;
using static System.Math;
using Json = System.Text.Json.JsonSerializer;
global using System.Linq;

namespace Acme.Shop;

/// <summary>
/// Keeps items on shelves; see <see cref="Item"/>.
/// </summary>
/// <typeparam name="T">The item type.</typeparam>
[Serializable]
[Obsolete("Use Store", error: false)]
public partial class Inventory<T> : StoreBase, IEnumerable<T>, IDisposable where T : Item
{
    private const int DefaultSize = 16;
    private readonly List<T> _items = new(DefaultSize);
    public static int Count { get; private set; }

    /// <summary>Creates an empty inventory.</summary>
    public Inventory() : this(DefaultSize) { }

    // Creates an inventory with room for size items.
    protected Inventory(int size) : base(size)
    {
        Registry.Register(this);
        Count = Max(Count, size);
    }

    static Inventory() => Log("loaded");

    ~Inventory() => Dispose();

    /// <summary>Adds <paramref name="item"/>.</summary>
    /// <param name="item">The item.</param>
    /// <returns>The inventory, for chaining.</returns>
    /// <exception cref="ArgumentNullException">If item is null.</exception>
    public Inventory<T> Add(T item)
    {
        _items.Add(item ?? throw new ArgumentNullException(nameof(item)));
        return this;
    }

    public void Add(IEnumerable<T> more)
    {
        foreach (var item in more.Where(i => i.Price > 0).Select(x => Normalize(x)))
        {
            this.Add(item);
        }
        Action<string> log = delegate (string s) { Log(s); };
        more.ToList().ForEach(log.Invoke);
    }

    public T? Find(string name)
    {
        T? Match(Func<T, bool> pred) => _items.FirstOrDefault(pred);
        return Match(i => string.Equals(i.Name, name, StringComparison.Ordinal));
    }

    public IEnumerator<T> GetEnumerator() => _items.GetEnumerator();

    System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();

    public void Dispose() => _items?.Clear();

    private static T Normalize(T item) => item;

    internal static void Log(string message) => Console.WriteLine(message);

    public static Inventory<T> operator +(Inventory<T> a, T b) => a.Add(b);

    public static implicit operator List<T>(Inventory<T> inv) => new List<T>(inv._items);

    /// <summary>A shelf of the inventory.</summary>
    public sealed class Shelf
    {
        public string Label { get; }

        public Shelf(string label) => Label = label.Trim();

        private protected void Reset() => base.ToString();
    }

    protected internal delegate void Changed(Inventory<T> sender);
}

/// Extension methods for inventories.
public static class InventoryExtensions
{
    public static int Total<T>(this Inventory<T> inv) where T : Item =>
        inv.Sum(i => i.Price);

    public static string Dump<T>(this Inventory<T> inv) where T : Item =>
        Json.Serialize(inv, new System.Text.Json.JsonSerializerOptions());

    // A C# 14 extension block, which the grammar reads as a constructor
    // named "extension": its members are methods of this class.
    extension(Inventory<Item> inv)
    {
        public Item? First() => inv.Find(string.Empty);
    }
}

public record Item(string Name, int Price) : IComparable<Item>
{
    public int CompareTo(Item? other) => Price.CompareTo(other?.Price ?? 0);
}

public readonly record struct Money(decimal Amount, string Currency);

internal struct Point : IEquatable<Point>
{
    public int X, Y;
    public bool Equals(Point other) => X == other.X && Y == other.Y;
}

public interface IStore
{
    void Put(Item item);
    Item? Take(string name);
}

public enum Kind { Tool, Food }
