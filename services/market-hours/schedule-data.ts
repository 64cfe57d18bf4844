// Trading schedules, as schedule text (format in schedule-format.ts), and which pair follows which.
// Times are local to each reference market. Holidays and early closes cover 2026–2027; past
// `validThrough` the engine refuses to answer. Ids are stable: they are published on every price row
// (0–5 keep the ids of the earlier per-asset-class placeholder).
//
// Unresolved facts are marked UNRESOLVED, with the choice made; each is one line to change.

import type { AssetClass } from '../../schemas/pairs.ts'

export interface ScheduleDefinition {
  readonly id: number
  readonly name: string
  readonly openingHours: string
  /** first and last local dates the holiday data covers; null for a schedule that never closes */
  readonly validFrom: string | null
  readonly validThrough: string | null
}

const COVERS_2026_2027 = { validFrom: '2026-01-01', validThrough: '2027-12-31' } as const
const NEVER_CLOSES = { validFrom: null, validThrough: null } as const

function scheduleText(timezone: string, week: string, holidays: readonly string[] = []): string {
  return [timezone, week, holidays.join(',')].join(';')
}

/** The same entry Monday to Friday, closed at the weekend. */
function weekdays(entry: string): string {
  return [entry, entry, entry, entry, entry, 'C', 'C'].join(',')
}

// NYSE / Nasdaq: weekday non-sessions, then early closes at 13:00.
const NYSE_HOLIDAYS = [
  '2026-01-01/C',
  '2026-01-19/C',
  '2026-02-16/C',
  '2026-04-03/C',
  '2026-05-25/C',
  '2026-06-19/C',
  '2026-07-03/C',
  '2026-09-07/C',
  '2026-11-26/C',
  '2026-12-25/C',
  '2027-01-01/C',
  '2027-01-18/C',
  '2027-02-15/C',
  '2027-03-26/C',
  '2027-05-31/C',
  '2027-06-18/C',
  '2027-07-05/C',
  '2027-09-06/C',
  '2027-11-25/C',
  '2027-12-24/C',
  '2026-11-27/0930-1300',
  '2026-12-24/0930-1300',
  '2027-11-26/0930-1300',
]
const US_EQUITY_HOURS = scheduleText('America/New_York', weekdays('0930-1600'), NYSE_HOLIDAYS)

// Spot FX: closes 17:00 ET on Dec 24 and Dec 31; closed Dec 25 and Jan 1 until 17:00 ET. Written per date
// against the weekly schedule: on a Friday "until 17:00" closes the whole day (Friday ends at 17:00);
// the Friday Dec 24 / Dec 31 entries equal a normal Friday and are kept to show the rule was applied.
const SPOT_FX_HOLIDAYS = [
  '2026-01-01/1700-2400',
  '2026-12-24/0000-1700',
  '2026-12-25/C',
  '2026-12-31/0000-1700',
  '2027-01-01/C',
  '2027-12-24/0000-1700',
  '2027-12-31/0000-1700',
]

// CME Globex on US holidays: trading halts early and reopens in the evening. The reference gives "about
// 13:00–14:30 ET"; 13:00 (the earliest) is chosen.
const CME_US_HOLIDAY_HALT = '1300'

/**
 * CME Globex week in New York time: Sunday evening to Friday `dailyClose`, with a daily break from
 * `dailyClose` to `reopen`. Closed Good Friday and Dec 25 (so no reopen the evening before); on the
 * other NYSE holidays the session halts at CME_US_HOLIDAY_HALT and reopens at `reopen` (not on Fridays).
 */
function cmeGlobexHours(dailyClose: string, reopen: string): string {
  const weekday = `0000-${dailyClose}&${reopen}-2400`
  const usHoliday = `0000-${CME_US_HOLIDAY_HALT}&${reopen}-2400`
  const usHolidayFriday = `0000-${CME_US_HOLIDAY_HALT}`
  const eveBeforeClosure = `0000-${dailyClose}`
  const week = [weekday, weekday, weekday, weekday, `0000-${dailyClose}`, 'C', `${reopen}-2400`].join(',')
  return scheduleText('America/New_York', week, [
    `2026-01-01/${usHoliday}`,
    `2026-01-19/${usHoliday}`,
    `2026-02-16/${usHoliday}`,
    `2026-04-02/${eveBeforeClosure}`,
    '2026-04-03/C',
    `2026-05-25/${usHoliday}`,
    `2026-06-19/${usHolidayFriday}`,
    `2026-07-03/${usHolidayFriday}`,
    `2026-09-07/${usHoliday}`,
    `2026-11-26/${usHoliday}`,
    `2026-12-24/${eveBeforeClosure}`,
    '2026-12-25/C',
    `2027-01-01/${usHolidayFriday}`,
    `2027-01-18/${usHoliday}`,
    `2027-02-15/${usHoliday}`,
    `2027-03-25/${eveBeforeClosure}`,
    '2027-03-26/C',
    `2027-05-31/${usHoliday}`,
    `2027-06-18/${usHolidayFriday}`,
    `2027-07-05/${usHoliday}`,
    `2027-09-06/${usHoliday}`,
    `2027-11-25/${usHoliday}`,
    `2027-12-24/${usHolidayFriday}`,
  ])
}

const SCHEDULES = {
  crypto: { id: 0, name: 'Crypto, around the clock', openingHours: 'UTC;O,O,O,O,O,O,O;', ...NEVER_CLOSES },
  spotFx: {
    id: 1,
    name: 'Spot FX majors, Sunday 17:00 to Friday 17:00 New York',
    openingHours: scheduleText('America/New_York', 'O,O,O,O,0000-1700,C,1700-2400', SPOT_FX_HOLIDAYS),
    ...COVERS_2026_2027,
  },
  cmeMetals: { id: 2, name: 'CME Globex metals', openingHours: cmeGlobexHours('1700', '1800'), ...COVERS_2026_2027 },
  cmeWti: {
    id: 3,
    name: 'WTI crude (CME Globex)',
    // UNRESOLVED oil hours. Chosen: the exchange's (close 17:00, reopen 18:00 ET). The venue reportedly
    // trades WTI 18:10–16:59 ET; for that, use cmeGlobexHours('1659', '1810').
    openingHours: cmeGlobexHours('1700', '1800'),
    ...COVERS_2026_2027,
  },
  usIndices: {
    id: 4,
    name: 'US stock indices',
    // UNRESOLVED: cash-index or futures hours. Chosen: cash hours on the NYSE calendar, like every other
    // index here. For CME futures hours use cmeGlobexHours('1700', '1800').
    openingHours: US_EQUITY_HOURS,
    ...COVERS_2026_2027,
  },
  usEquities: { id: 5, name: 'US stocks and ETFs (NYSE / Nasdaq)', openingHours: US_EQUITY_HOURS, ...COVERS_2026_2027 },
  emergingFx: {
    id: 6,
    name: 'Emerging-market FX, Sunday 18:00 to Friday 17:00 New York',
    // The reference gives spot-FX holiday rules only; they are applied here too.
    openingHours: scheduleText('America/New_York', 'O,O,O,O,0000-1700,C,1800-2400', SPOT_FX_HOLIDAYS),
    ...COVERS_2026_2027,
  },
  iceBrent: {
    id: 7,
    name: 'Brent crude (ICE Futures Europe)',
    // UNRESOLVED oil hours. Chosen: ICE's 01:00–23:00 London, the Monday session opening Sunday 23:00.
    // The venue reportedly trades Brent 20:02–16:59 New York time. Holidays are not in the reference:
    // ICE's usual closures (Jan 1, Good Friday, Dec 25) are assumed.
    openingHours: scheduleText('Europe/London', '0000-2300,0100-2300,0100-2300,0100-2300,0100-2300,C,2300-2400', [
      '2026-01-01/C',
      '2026-04-03/C',
      '2026-12-25/C',
      '2027-01-01/C',
      '2027-03-26/C',
    ]),
    ...COVERS_2026_2027,
  },
  londonStockExchange: {
    id: 8,
    name: 'London Stock Exchange',
    openingHours: scheduleText('Europe/London', weekdays('0800-1630'), [
      '2026-01-01/C',
      '2026-04-03/C',
      '2026-04-06/C',
      '2026-05-04/C',
      '2026-05-25/C',
      '2026-08-31/C',
      '2026-12-25/C',
      '2026-12-28/C',
      '2027-01-01/C',
      '2027-03-26/C',
      '2027-03-29/C',
      '2027-05-03/C',
      '2027-05-31/C',
      '2027-08-30/C',
      '2027-12-27/C',
      '2027-12-28/C',
      '2026-12-24/0800-1230',
      '2026-12-31/0800-1230',
      '2027-12-24/0800-1230',
      '2027-12-31/0800-1230',
    ]),
    ...COVERS_2026_2027,
  },
  xetra: {
    id: 9,
    name: 'Xetra (Frankfurt)',
    openingHours: scheduleText('Europe/Berlin', weekdays('0900-1730'), [
      '2026-01-01/C',
      '2026-04-03/C',
      '2026-04-06/C',
      '2026-05-01/C',
      '2026-12-24/C',
      '2026-12-25/C',
      '2026-12-31/C',
      '2027-01-01/C',
      '2027-03-26/C',
      '2027-03-29/C',
      '2027-12-24/C',
      '2027-12-31/C',
      '2026-12-30/0900-1400',
      '2027-12-30/0900-1400',
    ]),
    ...COVERS_2026_2027,
  },
  tokyoStockExchange: {
    id: 10,
    name: 'Tokyo Stock Exchange',
    openingHours: scheduleText('Asia/Tokyo', weekdays('0900-1130&1230-1530'), [
      '2026-01-01/C',
      '2026-01-02/C',
      '2026-01-12/C',
      '2026-02-11/C',
      '2026-02-23/C',
      '2026-03-20/C',
      '2026-04-29/C',
      '2026-05-04/C',
      '2026-05-05/C',
      '2026-05-06/C',
      '2026-07-20/C',
      '2026-08-11/C',
      '2026-09-21/C',
      '2026-09-22/C',
      '2026-09-23/C',
      '2026-10-12/C',
      '2026-11-03/C',
      '2026-11-23/C',
      '2026-12-31/C',
      '2027-01-01/C',
      '2027-01-11/C',
      '2027-02-11/C',
      '2027-02-23/C',
      '2027-03-22/C',
      '2027-04-29/C',
      '2027-05-03/C',
      '2027-05-04/C',
      '2027-05-05/C',
      '2027-07-19/C',
      '2027-08-11/C',
      '2027-09-20/C',
      '2027-09-23/C',
      '2027-10-11/C',
      '2027-11-03/C',
      '2027-11-23/C',
      '2027-12-31/C',
    ]),
    ...COVERS_2026_2027,
  },
  hongKongExchange: {
    id: 11,
    name: 'Hong Kong Exchanges',
    openingHours: scheduleText('Asia/Hong_Kong', weekdays('0930-1200&1300-1600'), [
      '2026-01-01/C',
      '2026-02-17/C',
      '2026-02-18/C',
      '2026-02-19/C',
      '2026-04-03/C',
      '2026-04-06/C',
      '2026-04-07/C',
      '2026-05-01/C',
      '2026-05-25/C',
      '2026-06-19/C',
      '2026-07-01/C',
      '2026-10-01/C',
      '2026-10-19/C',
      '2026-12-25/C',
      '2027-01-01/C',
      '2027-02-08/C',
      '2027-02-09/C',
      '2027-03-26/C',
      '2027-03-29/C',
      '2027-04-05/C',
      '2027-05-13/C',
      '2027-06-09/C',
      '2027-07-01/C',
      '2027-09-16/C',
      '2027-10-01/C',
      '2027-10-08/C',
      '2027-12-27/C',
      '2026-02-16/0930-1200',
      '2026-12-24/0930-1200',
      '2026-12-31/0930-1200',
      '2027-02-05/0930-1200',
      '2027-12-24/0930-1200',
      '2027-12-31/0930-1200',
    ]),
    ...COVERS_2026_2027,
  },
  koreaExchange: {
    id: 12,
    name: 'Korea Exchange',
    // The reference has no Korean holiday list: only New Year's Day and the 10:00 opening of the first
    // trading day are known, so other Korean holidays show as open until the list is added.
    openingHours: scheduleText('Asia/Seoul', weekdays('0900-1530'), [
      '2026-01-01/C',
      '2026-01-02/1000-1530',
      '2027-01-01/C',
      '2027-01-04/1000-1530',
    ]),
    ...COVERS_2026_2027,
  },
} as const satisfies Record<string, ScheduleDefinition>

type ScheduleKey = keyof typeof SCHEDULES

export const SCHEDULE_DEFINITIONS: Readonly<Record<ScheduleKey, ScheduleDefinition>> = SCHEDULES

/** The schedule of every pair of an asset class, unless the pair is listed in SCHEDULE_BY_SYMBOL. */
export const SCHEDULE_BY_ASSET_CLASS: Readonly<Partial<Record<AssetClass, ScheduleKey>>> = {
  crypto: 'crypto',
  fx: 'spotFx',
  metal: 'cmeMetals',
  stock: 'usEquities',
}

export const SCHEDULE_BY_SYMBOL: Readonly<Record<string, ScheduleKey>> = {
  'USD-KRW': 'emergingFx',
  'USD-MXN': 'emergingFx',
  'WTI-USD': 'cmeWti',
  'BRENT-USD': 'iceBrent',
  'US500-USD': 'usIndices',
  'US30-USD': 'usIndices',
  'US100-USD': 'usIndices',
  'UK100-GBP': 'londonStockExchange',
  'GER40-EUR': 'xetra',
  'JP225-JPY': 'tokyoStockExchange',
  'HK50-HKD': 'hongKongExchange',
  'KR2550-USD': 'koreaExchange',
  // UNRESOLVED home markets. SK Hynix's listing is on the Korea Exchange: chosen. SPCX reads as a US
  // ticker: US stock hours chosen.
  'SKHY-USD': 'koreaExchange',
  'SPCX-USD': 'usEquities',
}
