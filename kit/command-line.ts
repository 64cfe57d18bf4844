// The command line of every command (`npm start`, the npm scripts, the benches, the load test, the stand-ins),
// on node:util's parseArgs: `--help` prints the usage on stdout and exits 0; an unknown option, a missing
// value or a bad one prints the usage and one line naming what was wrong on stderr, and exits 2. Neither
// prints a stack trace. Long runs report progress on stderr, so what a command prints on stdout stays its output.
import { writeSync } from 'node:fs'
import { parseArgs } from 'node:util'

/** An option as parseArgs takes it, and how the usage shows it. */
export interface CommandOption {
  type: 'string' | 'boolean'
  multiple?: boolean
  short?: string
  default?: string | boolean | string[] | boolean[]
  /** its text in the usage; a `\n` starts another line */
  description: string
  /** the value's name in the usage, as `N` in `--runs N` (string options; `VALUE` when absent) */
  value?: string
  /** the heading it is listed under in the usage (`options` when absent) */
  section?: string
}

export type CommandOptions = Record<string, CommandOption>

export interface CommandDefinition<Options extends CommandOptions> {
  /** how it is run, its arguments included: `npm run bench:ingest -- [options]` */
  usage: string
  /** what it does, in a sentence or two */
  summary: string
  options: Options
  /** positional arguments: how many it takes at most (none when absent) */
  maxPositionals?: number
  /** lines printed after the options: notes, examples */
  notes?: string
}

type Parsed<Options extends CommandOptions> = ReturnType<typeof parseArgs<{ options: Options; allowPositionals: true; strict: true }>>

export interface NumberBounds {
  min?: number
  max?: number
  /** whole numbers only */
  integer?: boolean
}

export interface CommandLine<Options extends CommandOptions> {
  values: Parsed<Options>['values']
  positionals: string[]
  /** Refuses the command line: the usage and `reason` on stderr, exit 2. */
  refuse(reason: string): never
  /** `text` (the option's value by default) as a number within `bounds`; refuses anything else. */
  number(option: keyof Options & string, bounds?: NumberBounds, text?: string): number
  /** `text` (the option's value by default) as comma-separated numbers within `bounds`. */
  numbers(option: keyof Options & string, bounds?: NumberBounds, text?: string): number[]
  /** `text` (the option's value by default) if it is one of `choices`. */
  choice<Choice extends string>(option: keyof Options & string, choices: readonly Choice[], text?: string): Choice
  /** `text` as an absolute URL with one of `protocols` (`'http:'`, `'ws:'`, ...); `what` names it in a refusal. */
  url(what: string, text: string, protocols: readonly string[]): URL
}

/** Where a command's answer goes; tests pass their own. */
export type CommandExit = (code: 0 | 2, text: string) => never

const exitProcess: CommandExit = (code, text) => {
  // written synchronously: the process ends right after
  writeSync(code === 0 ? 1 : 2, text)
  process.exit(code)
}

const HELP: CommandOption = { type: 'boolean', short: 'h', description: 'print this help and exit' }

/**
 * Parses `argv` (the process's arguments by default) for `definition`. Answers `--help` and refusals itself
 * (through `exit`), so a command reads on only with a command line it can run.
 */
export function parseCommandLine<const Options extends CommandOptions>(
  definition: CommandDefinition<Options>,
  argv: string[] = process.argv.slice(2),
  exit: CommandExit = exitProcess,
): CommandLine<Options> {
  const usage = usageText(definition)
  const refuse = (reason: string): never => exit(2, `${usage}\nerror: ${reason}\n`)
  const options = Object.fromEntries(
    Object.entries({ ...definition.options, help: HELP }).map(([name, option]) => {
      const { description: _description, value: _value, section: _section, ...config } = option
      return [name, config]
    }),
  )
  let parsed: Parsed<Options>
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true }) as Parsed<Options>
  } catch (error) {
    if (!String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) throw error
    // its first sentence names the option ("Unknown option '--x'"); the rest is advice for scripts
    const message = (error as Error).message.split('. ')[0]!
    return refuse(message.charAt(0).toLowerCase() + message.slice(1))
  }
  if ((parsed.values as { help?: boolean }).help) return exit(0, usage)
  const maxPositionals = definition.maxPositionals ?? 0
  if (parsed.positionals.length > maxPositionals) {
    const extra = parsed.positionals.slice(maxPositionals).join(' ')
    refuse(maxPositionals === 0 ? `it takes no arguments, got "${extra}"` : `too many arguments: "${extra}"`)
  }

  const valueOf = (option: string, text: string | undefined): string => {
    const value = text ?? (parsed.values as Record<string, unknown>)[option]
    if (typeof value !== 'string') return refuse(`--${option} needs a value`)
    return value
  }
  const toNumber = (option: string, text: string, bounds: NumberBounds, list: boolean): number => {
    const value = Number(text)
    const { min = Number.NEGATIVE_INFINITY, max = Number.POSITIVE_INFINITY, integer = false } = bounds
    const form = integer ? /^-?\d+$/ : /^-?(\d+\.?\d*|\.\d+)$/
    if (!form.test(text.trim()) || value < min || value > max) {
      const [low, high] = [min > Number.NEGATIVE_INFINITY, max < Number.POSITIVE_INFINITY]
      const within = low && high ? ` from ${min} to ${max}` : low ? ` of at least ${min}` : high ? ` of at most ${max}` : ''
      const kind = `${integer ? 'whole number' : 'number'}${list ? 's' : ''}`
      refuse(`--${option} takes ${list ? 'comma-separated ' : 'a '}${kind}${within}, not "${text}"`)
    }
    return value
  }
  return {
    values: parsed.values,
    positionals: parsed.positionals,
    refuse,
    number: (option, bounds = {}, text) => toNumber(option, valueOf(option, text), bounds, false),
    numbers: (option, bounds = {}, text) => {
      const value = valueOf(option, text)
      return value.split(',').map((item) => toNumber(option, item, bounds, true))
    },
    choice: (option, choices, text) => {
      const value = valueOf(option, text)
      const choice = choices.find((candidate) => candidate === value)
      const named = choices.length > 2 ? `one of ${choices.join(', ')}` : choices.join(' or ')
      return choice ?? refuse(`--${option} is ${named}, not "${value}"`)
    },
    url: (what, text, protocols) => {
      const url = URL.canParse(text) ? new URL(text) : undefined
      if (!url || !protocols.includes(url.protocol)) {
        refuse(`${what} is a URL starting ${protocols.map((protocol) => `${protocol}//`).join(', ')}, not "${text}"`)
      }
      return url!
    },
  }
}

/** The usage `--help` prints: how to run it, what it does, then each option with its value and default. */
export function usageText(definition: CommandDefinition<CommandOptions>): string {
  const entries = Object.entries({ ...definition.options, help: HELP })
  const left = ([name, option]: [string, CommandOption]) =>
    `${option.short ? `-${option.short}, ` : ''}--${name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}`
  const width = Math.min(28, Math.max(...entries.map((entry) => left(entry).length)) + 2)
  const sections = new Map<string, string[]>()
  // --help is listed under the first heading
  const firstSection = Object.values(definition.options)[0]?.section ?? 'options'
  for (const entry of entries) {
    const [, option] = entry
    const shown = option.default === undefined || option.default === false || option.default === '' ? undefined : option.default
    const text = `${option.description}${shown === undefined ? '' : ` (default ${String(shown)})`}`
    const [first, ...more] = text.split('\n')
    const name = left(entry)
    const lines = [
      name.length < width ? `  ${name.padEnd(width)}${first}` : `  ${name}\n  ${' '.repeat(width)}${first}`,
      ...more.map((line) => `  ${' '.repeat(width)}${line}`),
    ]
    const section = entry[0] === 'help' ? firstSection : (option.section ?? 'options')
    sections.set(section, [...(sections.get(section) ?? []), ...lines])
  }
  return [
    `usage: ${definition.usage}`,
    '',
    definition.summary,
    ...[...sections].flatMap(([section, lines]) => ['', `${section}:`, ...lines]),
    ...(definition.notes ? ['', definition.notes] : []),
    '',
  ].join('\n')
}

/** An error as a command prints it, in one line: its short message where it has one (viem's errors do), a failed fetch with its cause. */
export function errorLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const message = (error as { shortMessage?: unknown }).shortMessage
  const line = typeof message === 'string' ? message : error.message
  return line === 'fetch failed' && error.cause instanceof Error ? `${line}: ${error.cause.message}` : line
}

/**
 * Progress of a long run on stderr: `[  12 s] text`, the time since this was created. `every(text)` prints at
 * most once per `intervalMs` (for loops that wait); the function itself always prints (a new phase).
 */
export function progressReporter(intervalMs = 1000): ((text: string) => void) & { every(text: string): void } {
  const startedAt = performance.now()
  let lastAt = Number.NEGATIVE_INFINITY
  const print = (text: string) => {
    lastAt = performance.now()
    process.stderr.write(`[${((lastAt - startedAt) / 1000).toFixed(0).padStart(4)} s] ${text}\n`)
  }
  return Object.assign(print, {
    every: (text: string) => {
      if (performance.now() - lastAt >= intervalMs) print(text)
    },
  })
}
