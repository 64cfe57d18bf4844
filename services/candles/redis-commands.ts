// Redis commands as the candle store and the history ledger run them: an unreachable or silent Redis is
// ServiceError 'upstream_unavailable' at once or after a timeout (the client itself would queue the
// command until Redis returns), and Lua scripts by their SHA, loaded again when Redis has forgotten them.

import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Redis } from 'ioredis'
import { ServiceError } from '../../kit/errors.ts'

export interface LuaScript {
  text: string
  sha: string
}

/** A Lua script beside the calling module, and its SHA1, by which Redis caches it. */
export function luaScript(url: URL): LuaScript {
  const text = readFileSync(url, 'utf8')
  return { text, sha: createHash('sha1').update(text).digest('hex') }
}

export interface RedisCommands {
  /** runs a command, turning an unreachable or silent Redis into ServiceError 'upstream_unavailable' */
  run<T>(command: () => Promise<T>): Promise<T>
  /** runs a script by its SHA (EVAL once more when Redis has forgotten it), inside `run` */
  evalScript(script: LuaScript, keys: string[], args: string[]): Promise<unknown>
}

/**
 * An error Redis itself replied with (ioredis's ReplyError, told by its name, so that a process without Redis
 * never loads ioredis for this module).
 */
const isReplyError = (error: unknown): error is Error => error instanceof Error && error.name === 'ReplyError'

export function redisCommands(redis: Redis, timeoutMs: number): RedisCommands {
  const run = async <T>(command: () => Promise<T>): Promise<T> => {
    if (redis.status !== 'ready') throw unavailable(new Error(`Redis connection is ${redis.status}`))
    try {
      return await withTimeout(command(), timeoutMs)
    } catch (error) {
      // an error Redis itself replied with is ours to fix, not an outage
      throw isReplyError(error) ? error : unavailable(error)
    }
  }
  const evalScript = async ({ text, sha }: LuaScript, keys: string[], args: string[]) => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args)
    } catch (error) {
      // the script is cached by Redis after the first EVAL; a restarted Redis has forgotten it
      if (!(isReplyError(error) && error.message.startsWith('NOSCRIPT'))) throw error
      return redis.eval(text, keys.length, ...keys, ...args)
    }
  }
  return { run, evalScript: (script, keys, args) => run(() => evalScript(script, keys, args)) }
}

function unavailable(cause: unknown): ServiceError {
  return new ServiceError('upstream_unavailable', 'the candle store cannot be reached; retry shortly', { cause })
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
