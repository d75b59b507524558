# frozen_string_literal: true

require "json"
require 'set'
require_relative "support/money"
require_relative '../shared/logging'
require File.expand_path("../config/defaults", __FILE__)
require File.join(__dir__, "formats", "csv")
load "tasks/seed.rake"
autoload :Report, "inventory/report"

# Inventory keeps track of stock across warehouses.
module Inventory
  VERSION = "1.4.0"
  Error = Class.new(StandardError)

  # An item on a shelf.
  Item = Struct.new(:sku, :name, :price) do
    # The price with tax applied.
    def gross(rate = 0.2)
      price * (1 + rate)
    end
  end

  ##
  # A warehouse holds items by SKU.
  #
  # It is safe to share between threads.
  class Warehouse < Base::Store
    include Enumerable
    include Logging::Helpers
    extend Forwardable

    def_delegators :@items, :size, :empty?
    attr_reader :name

    # Builds a warehouse from a JSON document.
    def self.from_json(doc)
      data = JSON.parse(doc)
      new(data.fetch("name")).tap do |w|
        data["items"].each { |h| w.add(Item.new(*h.values_at("sku", "name", "price"))) }
      end
    end

    class << self
      # The default warehouse.
      def default
        @default ||= new("main")
      end

      private

      def registry
        @registry ||= {}
      end
    end

    def initialize(name, items: {})
      super()
      @name = name
      @items = items
      @lock = Mutex.new
    end

    # Adds an item; returns self for chaining.
    def add(item)
      @lock.synchronize { @items[item.sku] = item }
      log_event(:added, item.sku)
      self
    end

    def each(&block)
      @items.each_value(&block)
    end

    def [](sku) = @items[sku]

    def report
      lines = map { |i| format_line(i) }
      <<~TEXT
        Warehouse #{name.upcase}
        #{lines.join("\n")}
        Total: #{total_value.round(2)}
      TEXT
    end

    def ==(other)
      other.is_a?(Warehouse) && other.name == name
    end

    protected

    def total_value
      sum(&:price)
    end

    private

    def format_line(item)
      format("%-10s %s", item.sku, item.name)
    end

    def log_event(kind, sku) = logger&.info("#{kind}: #{sku}")

    public

    def to_h
      { name: name, items: @items.transform_values(&:to_h) }
    end
  end

  # Audits compare two warehouses.
  class Audit
    Finding = Data.define(:sku, :issue)

    def initialize(left, right)
      @left, @right = left, right
      @check = ->(sku) { compare(sku) }
    end

    def run
      (@left.map(&:sku) | @right.map(&:sku)).filter_map { |sku| @check.(sku) }
    end

    def compare(sku)
      a, b = @left[sku], @right[sku]
      return Finding.new(sku, :missing) if a.nil? || b.nil?

      Finding.new(sku, :price) unless a.price == b.price
    end
    private :compare

    def self.quick(left, right) = new(left, right).run
    private_class_method :quick
  end
end

# Reopened to add CSV export.
class Inventory::Warehouse
  # Rows of sku, name, price.
  def to_csv
    CSV.generate { |csv| each { |i| csv << i.to_a } }
  end
end

=begin
Top-level helper, documented with an
embedded document.
=end
def restock(warehouse, *items, **opts)
  items.each { |i| warehouse.add(i) }
  puts "restocked #{items.size}" if opts[:verbose]
end

Inventory::Warehouse.default.add(Inventory::Item.new("A1", "Anvil", 99.0))
restock Inventory::Warehouse.default
