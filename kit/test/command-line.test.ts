import t from 'tap'
import { freePort } from '../../test/support/servers.ts'
import { errorLine, parseCommandLine, usageText, type CommandDefinition, type CommandOptions } from '../command-line.ts'

const definition = {
  usage: 'npm run example -- [base URL] [options]',
  summary: 'Does one thing well.',
  maxPositionals: 1,
  options: {
    runs: { type: 'string', default: '3', value: 'N', description: 'measured runs' },
    rates: { type: 'string', default: '10,15', value: 'LIST', description: 'offered rates, comma-separated' },
    mode: { type: 'string', value: 'fast|slow', description: 'how it runs\nslow: one at a time', section: 'tuning' },
    quiet: { type: 'boolean', default: false, description: 'print less' },
  },
} satisfies CommandDefinition<CommandOptions>

/** What the command answered instead of reading on: the exit code and the text. */
class Answered {
  constructor(
    readonly code: number,
    readonly text: string,
  ) {}
}
const answer = (code: 0 | 2, text: string): never => {
  throw new Answered(code, text)
}
const parse = (argv: string[]) => parseCommandLine(definition, argv, answer)
const answered = (run: () => unknown): Answered => {
  try {
    run()
  } catch (error) {
    if (error instanceof Answered) return error
    throw error
  }
  throw new Error('the command line was accepted')
}
const refusal = (run: () => unknown) => {
  const { code, text } = answered(run)
  return { code, usage: text.startsWith(usageText(definition)), reason: text.slice(usageText(definition).length) }
}

t.test('--help and -h: the usage, every option with its value and default, grouped by section; exit 0', async (t) => {
  const help = answered(() => parse(['--help']))
  t.equal(help.code, 0)
  t.equal(
    help.text,
    [
      'usage: npm run example -- [base URL] [options]',
      '',
      'Does one thing well.',
      '',
      'options:',
      '  --runs N          measured runs (default 3)',
      '  --rates LIST      offered rates, comma-separated (default 10,15)',
      '  --quiet           print less',
      '  -h, --help        print this help and exit',
      '',
      'tuning:',
      '  --mode fast|slow  how it runs',
      '                    slow: one at a time',
      '',
    ].join('\n'),
  )
  t.same(
    answered(() => parse(['-h', 'http://x'])),
    help,
    '-h too, whatever else is given',
  )
})

t.test('values, defaults and positionals as parseArgs reads them', async (t) => {
  const line = parse(['http://127.0.0.1:8080', '--runs', '5', '--quiet'])
  t.same(line.values, { runs: '5', rates: '10,15', quiet: true })
  t.same(line.positionals, ['http://127.0.0.1:8080'])
  t.equal(line.number('runs', { min: 1, integer: true }), 5)
  t.same(line.numbers('rates', { min: 1 }), [10, 15])
  t.equal(line.number('runs', {}, '2.5'), 2.5, 'a given text instead of the value')
  t.equal(parse(['--mode', 'slow']).choice('mode', ['fast', 'slow']), 'slow')
  t.equal(line.url('the base URL', 'ws://127.0.0.1:8080', ['ws:', 'http:']).port, '8080')
})

t.test('an unknown option, a missing value, an extra argument: the usage, then one line naming it; exit 2', async (t) => {
  t.same(
    refusal(() => parse(['--bogus'])),
    { code: 2, usage: true, reason: "\nerror: unknown option '--bogus'\n" },
  )
  t.same(
    refusal(() => parse(['--runs'])),
    { code: 2, usage: true, reason: "\nerror: option '--runs <value>' argument missing\n" },
  )
  t.same(
    refusal(() => parse(['a', 'b'])),
    { code: 2, usage: true, reason: '\nerror: too many arguments: "b"\n' },
  )
})

t.test('a command without positionals refuses one', async (t) => {
  const reason = refusal(() => parseCommandLine({ ...definition, maxPositionals: undefined }, ['extra'], answer)).reason
  t.equal(reason, '\nerror: it takes no arguments, got "extra"\n')
})

t.test('bad values are refused with the option, what it takes and what was given', async (t) => {
  const line = parse(['--runs', 'three', '--rates', '10,x', '--mode', 'medium'])
  t.equal(
    refusal(() => line.number('runs', { min: 1, integer: true })).reason,
    '\nerror: --runs takes a whole number of at least 1, not "three"\n',
  )
  t.equal(refusal(() => line.number('runs', {}, '0x10')).reason, '\nerror: --runs takes a number, not "0x10"\n')
  t.equal(refusal(() => line.number('runs', { min: 1 }, '')).reason, '\nerror: --runs takes a number of at least 1, not ""\n')
  t.equal(
    refusal(() => line.number('runs', { min: 1, max: 5, integer: true }, '7')).reason,
    '\nerror: --runs takes a whole number from 1 to 5, not "7"\n',
  )
  t.equal(
    refusal(() => line.numbers('rates', { min: 1 })).reason,
    '\nerror: --rates takes comma-separated numbers of at least 1, not "x"\n',
  )
  t.equal(refusal(() => line.choice('mode', ['fast', 'slow'])).reason, '\nerror: --mode is fast or slow, not "medium"\n')
  t.equal(refusal(() => line.choice('mode', ['a', 'b', 'c'])).reason, '\nerror: --mode is one of a, b, c, not "medium"\n')
  t.equal(refusal(() => parse([]).number('mode')).reason, '\nerror: --mode needs a value\n')
  t.equal(
    refusal(() => line.url('--target', 'ftp://host', ['http:', 'https:'])).reason,
    '\nerror: --target is a URL starting http://, https://, not "ftp://host"\n',
  )
  t.equal(refusal(() => line.url('--target', 'localhost:8080', ['http:'])).code, 2, 'not an absolute URL')
  t.equal(refusal(() => line.refuse('--client native needs --publish')).reason, '\nerror: --client native needs --publish\n')
})

t.test('an error in one line: a short message where it has one, a failed fetch with its cause', async (t) => {
  t.equal(errorLine(new Error('the deployment has no chain 1')), 'the deployment has no chain 1')
  t.equal(
    errorLine(Object.assign(new Error('HTTP request failed.\n\nURL: ...\nDetails: ...'), { shortMessage: 'HTTP request failed.' })),
    'HTTP request failed.',
  )
  const port = await freePort()
  const refused = await fetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error)
  t.equal(errorLine(refused), `fetch failed: connect ECONNREFUSED 127.0.0.1:${port}`)
  t.equal(errorLine('plain'), 'plain')
})
