/**
 * A small reactive store with undo.
 * @module store
 */

import EventEmitter, { once as onceEvent } from "node:events";
import * as path from "node:path";
import { debounce } from "./util/timing.js";
import defaults, { merge } from "../config";
import "./polyfills";
export { Snapshot } from "./snapshot.js";
export * from "./selectors";

const MAX_HISTORY = 50;

// logged is a method decorator.
function logged(value, { kind, name }) {
  if (kind === "method") {
    return function (...args) {
      console.log(`calling ${name}`);
      return value.call(this, ...args);
    };
  }
}

/**
 * Store keeps state and notifies subscribers.
 *
 * @template S
 */
export class Store extends EventEmitter {
  static instances = 0;
  #history = [];

  /** Builder assembles a store step by step. */
  static Builder = class {
    constructor() {
      this.state = {};
    }

    /** with sets one key. */
    with(key, value) {
      this.state[key] = value;
      return this;
    }

    build() {
      return new Store(this.state);
    }
  };

  /**
   * @param {S} initial the first state
   */
  constructor(initial = defaults.state) {
    super();
    this.state = merge({}, initial);
    Store.instances++;
    this.notify = debounce(() => this.emit("change", this.state), 10);
  }

  // get exposes the current state.
  get current() {
    return this.state;
  }

  @logged
  update(patch) {
    this.#remember();
    this.state = { ...this.state, ...patch };
    this.notify();
  }

  // Arrow-function fields are methods.
  undo = () => {
    const prev = this.#history.pop();
    if (prev) this.state = prev;
    this.notify();
  };

  #remember() {
    this.#history.push(this.state);
    if (this.#history.length > MAX_HISTORY) this.#history.shift();
  }

  static create(initial) {
    return new Store.Builder().with("initial", initial).build();
  }

  async *changes() {
    while (true) {
      yield await onceEvent(this, "change");
    }
  }
}

/** createSelector memoises fn over the store state. */
export const createSelector = (store, fn) => {
  let last;
  store.on("change", (state) => {
    last = fn(state);
  });
  return () => last ?? fn(store.current);
};

export function persist(store, file = path.join(".", "state.json")) {
  function write() {
    return import("node:fs/promises").then((fs) => fs.writeFile(file, JSON.stringify(store.current)));
  }
  store.on("change", write);
  return write;
}

/* actions groups the store's commands. */
export const actions = {
  reset(store) {
    store.update(defaults.state);
  },
  // counters keeps named counters.
  counters: {
    increment: (store, key) => store.update({ [key]: (store.current[key] ?? 0) + 1 }),
    decrement(store, key) {
      store.update({ [key]: store.current[key] - 1 });
    },
  },
  limits: { max: MAX_HISTORY },
};

const internal = function helper(x) {
  return String(x).trim();
};

export default function (initial) {
  return Store.create(initial);
}

const shared = new Store({});
shared.on("change", () => console.debug("changed"));
