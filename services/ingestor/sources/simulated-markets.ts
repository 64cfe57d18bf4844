import type { AssetClass } from '../../../schemas/pairs.ts'

// Starting mids for the simulator, roughly where these markets traded in late 2026, and per-class
// spread and volatility. Figures only need to look plausible, not be current.

export const STARTING_MIDS: Readonly<Record<string, number>> = {
  'BTC-USD': 95000, 'ETH-USD': 3400, 'EUR-USD': 1.16, 'GBP-USD': 1.32, 'USD-JPY': 152.4, 'XAU-USD': 4050,
  'XCU-USD': 5.05, 'WTI-USD': 60.5, 'XAG-USD': 49.5, 'SOL-USD': 180, 'US500-USD': 6700, 'US30-USD': 46500,
  'US100-USD': 24600, 'JP225-JPY': 49000, 'UK100-GBP': 9600, 'GER40-EUR': 24000, 'USD-CAD': 1.4, 'USD-MXN': 18.4,
  'NVDA-USD': 185, 'GOOG-USD': 280, 'AMZN-USD': 230, 'META-USD': 650, 'TSLA-USD': 430, 'AAPL-USD': 270,
  'MSFT-USD': 510, 'USD-CHF': 0.8, 'AUD-USD': 0.65, 'NZD-USD': 0.57, 'XPD-USD': 1400, 'XPT-USD': 1550,
  'HK50-HKD': 26000, 'COIN-USD': 320, 'HOOD-USD': 130, 'MSTR-USD': 280, 'CRCL-USD': 120, 'BMNR-USD': 45,
  'SBET-USD': 15, 'GLXY-USD': 35, 'BNB-USD': 1100, 'XRP-USD': 2.4, 'TRX-USD': 0.3, 'HYPE-USD': 40,
  'LINK-USD': 17, 'ADA-USD': 0.65, 'PLTR-USD': 180, 'AMD-USD': 240, 'NFLX-USD': 1100, 'ORCL-USD': 250,
  'RIVN-USD': 14, 'COST-USD': 920, 'XOM-USD': 115, 'CVX-USD': 155, 'URA-USD': 45, 'USD-KRW': 1430,
  'KR2550-USD': 550, 'BRENT-USD': 64, 'GEV-USD': 600, 'SHEL-USD': 72, 'UNG-USD': 13, 'XLE-USD': 90,
  'ARM-USD': 160, 'ASML-USD': 1000, 'AVGO-USD': 350, 'CAT-USD': 520, 'INTC-USD': 37, 'SMCI-USD': 45,
  'TSM-USD': 290, 'MU-USD': 200, 'SNDK-USD': 150, 'HYG-USD': 80, 'TLT-USD': 90, 'MP-USD': 70, 'DRAM-USD': 25,
  'REMX-USD': 60, 'BB-USD': 5, 'CRWV-USD': 120, 'DELL-USD': 140, 'MRNA-USD': 26, 'MRVL-USD': 90,
  'NBIS-USD': 100, 'LLY-USD': 800, 'SKHY-USD': 300, 'SPCX-USD': 30,
}

export interface ClassDynamics {
  /** full bid–ask spread, in basis points of mid */
  spreadBps: number
  /** standard deviation of one tick's log return */
  tickVolatility: number
}

export const CLASS_DYNAMICS: Readonly<Record<AssetClass, ClassDynamics>> = {
  crypto: { spreadBps: 2, tickVolatility: 0.0004 },
  fx: { spreadBps: 0.6, tickVolatility: 0.00005 },
  metal: { spreadBps: 3, tickVolatility: 0.0002 },
  energy: { spreadBps: 5, tickVolatility: 0.0003 },
  index: { spreadBps: 1.5, tickVolatility: 0.0001 },
  stock: { spreadBps: 3, tickVolatility: 0.0002 },
}
