// Illustrative price levels per pair symbol (quote currency per unit of base), so that generated
// prices, open interest and notionals have realistic magnitudes. Not market data.

const REFERENCE_PRICES: Readonly<Record<string, number>> = {
  'BTC-USD': 95000, 'ETH-USD': 3200, 'EUR-USD': 1.16, 'GBP-USD': 1.32, 'USD-JPY': 154.2,
  'XAU-USD': 4050, 'XCU-USD': 5.02, 'WTI-USD': 59.4, 'XAG-USD': 50.3, 'SOL-USD': 140,
  'US500-USD': 6650, 'US30-USD': 46500, 'US100-USD': 24500, 'JP225-JPY': 49500, 'UK100-GBP': 9600,
  'GER40-EUR': 23500, 'USD-CAD': 1.401, 'USD-MXN': 18.4, 'NVDA-USD': 182, 'GOOG-USD': 290,
  'AMZN-USD': 222, 'META-USD': 600, 'TSLA-USD': 400, 'AAPL-USD': 270, 'MSFT-USD': 480,
  'USD-CHF': 0.802, 'AUD-USD': 0.652, 'NZD-USD': 0.566, 'XPD-USD': 1400, 'XPT-USD': 1550,
  'HK50-HKD': 25800, 'COIN-USD': 250, 'HOOD-USD': 120, 'MSTR-USD': 180, 'CRCL-USD': 75,
  'BMNR-USD': 30, 'SBET-USD': 12, 'GLXY-USD': 28, 'BNB-USD': 900, 'XRP-USD': 2.1,
  'TRX-USD': 0.28, 'HYPE-USD': 35, 'LINK-USD': 13.5, 'ADA-USD': 0.45, 'PLTR-USD': 170,
  'AMD-USD': 210, 'NFLX-USD': 110, 'ORCL-USD': 220, 'RIVN-USD': 16, 'COST-USD': 910,
  'XOM-USD': 117, 'CVX-USD': 150, 'URA-USD': 45, 'USD-KRW': 1460, 'KR2550-USD': 550,
  'BRENT-USD': 63.5, 'GEV-USD': 600, 'SHEL-USD': 72, 'UNG-USD': 14, 'XLE-USD': 90,
  'ARM-USD': 140, 'ASML-USD': 1000, 'AVGO-USD': 340, 'CAT-USD': 560, 'INTC-USD': 35,
  'SMCI-USD': 35, 'TSM-USD': 290, 'MU-USD': 220, 'SNDK-USD': 230, 'HYG-USD': 80.5,
  'TLT-USD': 89, 'MP-USD': 60, 'DRAM-USD': 30, 'REMX-USD': 65, 'BB-USD': 4.1,
  'CRWV-USD': 80, 'DELL-USD': 125, 'MRNA-USD': 25, 'MRVL-USD': 90, 'NBIS-USD': 90,
  'LLY-USD': 1000, 'SKHY-USD': 400, 'SPCX-USD': 50,
}

export function referencePrice(symbol: string): number {
  const price = REFERENCE_PRICES[symbol]
  if (price === undefined) throw new Error(`no reference price for ${symbol}`)
  return price
}
