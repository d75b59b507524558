// Type declarations for the widget runtime. In a declaration file every
// top-level declaration is visible to its importers.

/// <reference types="node" />

import type { EventEmitter } from "events";

/** WidgetOptions configure a widget. */
interface WidgetOptions {
  /** selector is where the widget mounts. */
  selector: string;
  render?(el: Element): void;
}

declare class Widget extends EventEmitter {
  constructor(options: WidgetOptions);
  /** mount attaches the widget. */
  mount(): Promise<void>;
  mount(target: Element): Promise<void>;
  static registry: Map<string, Widget>;
  private secret;
}

/**
 * createWidget builds a widget; two overloads.
 */
declare function createWidget(selector: string): Widget;
declare function createWidget(options: WidgetOptions): Widget;

declare const VERSION: string;

/** Phase is where a widget is in its life. */
declare const enum Phase {
  Created = 0,
  Mounted = 1,
  Destroyed = 2,
}

/** WidgetFactory makes widgets: call it or construct it. */
interface WidgetFactory<W extends Widget = Widget> {
  (selector: string): W;
  new (options: WidgetOptions): W;
  /** defaults are merged into every widget's options. */
  defaults: Partial<WidgetOptions>;
  extend<E>(mixin: E): WidgetFactory<W & E>;
}

type Unwrap<T> = T extends Promise<infer U> ? U : T;

declare abstract class Plugin<Config = unknown> {
  protected constructor(config: Config);
  abstract install(widget: Widget): void;
  static create<P extends Plugin>(this: new () => P): P;
}

declare namespace Widget {
  type State = "idle" | "mounted";
  function isWidget(value: unknown): value is Widget;
  namespace Internal {
    interface Slot {
      name: string;
    }
  }
}

declare global {
  interface Window {
    /** widgets maps ids to live widgets. */
    widgets: Record<string, Widget>;
    createWidget: typeof createWidget;
  }
  function requestWidget(id: string): Widget | undefined;
}

declare module "widget-runtime/plugins" {
  export interface Plugin {
    name: string;
    install(widget: Widget): void;
  }
  export function register(plugin: Plugin): void;
}

export { Widget, createWidget, WidgetOptions };
export as namespace WidgetRuntime;
