/**
 * User service: repositories, caching and events.
 */
import "reflect-metadata";
import type { Request } from "express";
import { Injectable, Inject as InjectToken } from "@nestjs/common";
import * as crypto from "node:crypto";
import Redis, { type RedisOptions } from "ioredis";
import config = require("./config");
import { User, type UserId } from "./models/user";
export { UserDto as PublicUser } from "./models/dto";
export * as events from "./events/index.js";

/** Role is what a user may do. */
export enum Role {
  Reader,
  Writer = "writer",
  Admin = 1 << 2,
}

/** Repository stores entities of type T by key K. */
export interface Repository<T, K = string> extends Iterable<T> {
  /** find returns the entity or undefined. */
  find(id: K): Promise<T | undefined>;
  save(entity: T): Promise<void>;
  readonly size: number;
  onChange?: (id: K) => void;
}

export type Listener<E> = (event: E) => void;

// Page is one slice of a listing.
export type Page<T> = {
  items: T[];
  next(): Promise<Page<T> | null>;
};

type Key = `user:${string}`;

/**
 * BaseService wires logging into services.
 */
export abstract class BaseService<T extends { id: string }> implements Disposable {
  protected static count = 0;

  protected constructor(protected readonly name: string) {
    BaseService.count++;
  }

  /** describe names the service. */
  abstract describe(): string;

  protected log(message: string): void {
    console.log(`[${this.name}] ${message}`);
  }

  [Symbol.dispose](): void {
    this.log("disposed");
  }
}

@Injectable({ scope: "request" })
export class UserService extends BaseService<User> implements Repository<User, UserId> {
  static readonly Errors = class {
    static notFound(id: UserId) {
      return new Error(`user ${id} not found`);
    }
  };

  private readonly cache = new Map<UserId, User>();
  #redis?: Redis;

  constructor(@InjectToken("REDIS") private readonly options: RedisOptions) {
    super("users");
  }

  get size(): number {
    return this.cache.size;
  }

  describe(): string {
    return `UserService(${this.size})`;
  }

  /** find looks in the cache first. */
  find(id: UserId): Promise<User | undefined>;
  @Cached()
  find(id: UserId, fresh: boolean): Promise<User | undefined>;
  async find(id: UserId, fresh = false): Promise<User | undefined> {
    if (!fresh && this.cache.has(id)) return this.cache.get(id);
    const raw = await this.redis().get(key(id));
    return raw ? User.parse(raw) : undefined;
  }

  async save(user: User): Promise<void> {
    this.cache.set(user.id, user);
    await this.redis().set(key(user.id), JSON.stringify(user));
    this.emit?.(user.id);
  }

  // onRequest is bound so that it can be passed around.
  onRequest = async (req: Request): Promise<void> => {
    const users = await Promise.all(req.body.ids.map((id: UserId) => this.find(id)));
    users.filter(Boolean).forEach((u) => this.log(u!.name));
  };

  private redis(): Redis {
    return (this.#redis ??= new Redis(this.options));
  }

  *[Symbol.iterator](): Iterator<User> {
    yield* this.cache.values();
  }

  private emit?: Listener<UserId>;
}

function key(id: UserId): Key {
  return `user:${crypto.createHash("sha1").update(id).digest("hex")}`;
}

export function hash(value: string): string;
export function hash(value: Buffer): string;
export function hash(value: string | Buffer): string {
  using scope = track("hash");
  return crypto.createHash("sha256").update(value).digest("hex");
}

/** Cached is a method decorator factory. */
export const Cached =
  () =>
  <T>(target: object, prop: string, descriptor: TypedPropertyDescriptor<T>) => {
    Reflect.defineMetadata("cached", true, target, prop);
    return descriptor;
  };

export namespace Validation {
  export interface Rule {
    check(value: unknown): boolean;
  }

  export namespace Rules.Strings {
    export const nonEmpty: Rule = { check: (v) => typeof v === "string" && v.length > 0 };
  }

  export function validate(value: unknown, rules: Rule[]): boolean {
    return rules.every((r) => r.check(value));
  }

  function internalHelper() {
    return loadRules();
  }
}

export async function loadRules(): Promise<unknown> {
  const { rules } = await import("./rules");
  return rules;
}
