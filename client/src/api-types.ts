// Generated from the OpenAPI document by `npm run openapi:types`; do not edit.

export interface paths {
    "/v1/prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Latest price of every pair with a trading schedule */
        get: operations["listPrices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/prices/{pair}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Latest price of one pair */
        get: operations["getPrice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/prices/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * WebSocket stream of ticks (upgrade request), or the same as Server-Sent Events
         * @description Upgrade to a WebSocket. The server sends a `snapshot` frame, then `tick` frames; `gap` when ticks were dropped for this client; `ack` or `error` for each client message. With `Accept: text/event-stream` (no upgrade) the same frames come as Server-Sent Events (`snapshot`, `tick`, `gap`, `resumed`, `heartbeat`), each with its cursor as `id`; `Last-Event-ID` resumes. `?heartbeat=` asks for a `heartbeat` frame after that many seconds of silence; `?rate=fixed_rate@<n>ms` for the latest row of each changed pair once per window instead of every tick; `?batch=true` for each window (at real time, the ticks of each turn) in one `batch` frame. The frames, the loss contract, the filter rules and the limits are in the AsyncAPI document (`/v1/asyncapi.json`). Pings every 30 s (comments every 5 s for Server-Sent Events); shutdown closes with 1001 (ends the event stream).
         */
        get: operations["openPriceStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/candles/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * WebSocket stream of candles as they form (upgrade request), or the same as Server-Sent Events
         * @description Upgrade to a WebSocket. The server sends a `snapshot` frame (each pair's last closed and forming candle), then `candle` frames: the forming candle at most once a second per pair when it changed, and exactly one `closed: true` frame when its period ends, the candle `POST /v1/ohlc` answers for that period; `gap` when candle frames were dropped for this client. Nothing of a pair while its market is closed. With `Accept: text/event-stream` (no upgrade) the same frames come as Server-Sent Events (`snapshot`, `candle`, `gap`, `heartbeat`). `?heartbeat=` asks for a `heartbeat` frame after that many seconds of silence. Connections count in the price stream's ceilings and upgrade budget. The frames are in the AsyncAPI document (`/v1/asyncapi.json`). Shutdown closes with 1001 (ends the event stream).
         */
        get: operations["openCandleStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the price feed is live; always 200 */
        get: operations["getStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/market-hours": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Session calendars and the pair → schedule map; with `at`, each pair evaluated at that instant */
        get: operations["getMarketHours"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ohlc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Historical OHLC candles */
        post: operations["getOhlc"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/udf/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Datafeed configuration (UDF) */
        get: operations["getUdfConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/udf/symbols": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A pair's symbol information (UDF) */
        get: operations["resolveUdfSymbol"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/udf/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Symbol search (UDF) */
        get: operations["searchUdfSymbols"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/udf/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Bars (UDF) */
        get: operations["getUdfHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/udf/time": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server time (UDF) */
        get: operations["getUdfTime"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/depth/{pair}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Depth: fill price and impact by notional size, long and short */
        get: operations["getDepth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/depth/{pair}/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The price a trade of a given side and notional gets */
        get: operations["getQuote"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/pairs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pair list from the indexed source (legacy spellings kept) */
        get: operations["listPairs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Resting limit/stop orders of a wallet */
        get: operations["listLimits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/trades": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open positions of a wallet */
        get: operations["listTrades"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Executed orders of a wallet */
        get: operations["listOrders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subgraph/gn": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * GraphQL door to the Arbitrum One (42161) subgraph
         * @description A GraphQL door to the chain's subgraph for existing clients: a query within the limits is forwarded as sent and the subgraph's answer passed on unchanged (status, `content-type`, body). Limits and why: body at most 49152 bytes (413): a query within the length cap plus its variables fits, nothing larger is parsed; query at most 40000 characters: the venue's own door documents this cap; depth at most 10 (introspection not counted, fragments flattened): real client queries are 3 to 4 deep; at most 30 aliases: aliases multiply a list; at most 20000 rows, counted as graph-node counts complexity (`first` of each list times its parents', 100 when absent): one answer must not drain the upstream; upstream timeout 5000 ms (504): a hanging upstream must not hold connections; identical requests within 2000 ms share one upstream request and its answer. A query over the depth, alias, length or row limit is answered 200 with `errors` in graph-node's words, as graph-node answers its own limits; `first` above 1000 and `skip` above 5000 are forwarded and refused by the subgraph. Introspection is answered. One per-IP budget covers both chains; its figures are in the `x-ratelimit-*` headers.
         */
        post: operations["querySubgraph"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subgraph/{chainId}/gn": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * GraphQL door to a chain's subgraph
         * @description A GraphQL door to the chain's subgraph for existing clients: a query within the limits is forwarded as sent and the subgraph's answer passed on unchanged (status, `content-type`, body). Limits and why: body at most 49152 bytes (413): a query within the length cap plus its variables fits, nothing larger is parsed; query at most 40000 characters: the venue's own door documents this cap; depth at most 10 (introspection not counted, fragments flattened): real client queries are 3 to 4 deep; at most 30 aliases: aliases multiply a list; at most 20000 rows, counted as graph-node counts complexity (`first` of each list times its parents', 100 when absent): one answer must not drain the upstream; upstream timeout 5000 ms (504): a hanging upstream must not hold connections; identical requests within 2000 ms share one upstream request and its answer. A query over the depth, alias, length or row limit is answered 200 with `errors` in graph-node's words, as graph-node answers its own limits; `first` above 1000 and `skip` above 5000 are forwarded and refused by the subgraph. Introspection is answered. One per-IP budget covers both chains; its figures are in the `x-ratelimit-*` headers.
         */
        post: operations["querySubgraphOfChain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/graph": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * GraphQL door to the Arbitrum One (42161) subgraph at the venue's metadata-backend path
         * @description Public clients configured with the venue's metadata backend (`https://metadata-backend.ostium.io`) post their GraphQL to `{base}/graph`; this is the Arbitrum One door of `/v1/subgraph/gn` at that path, with the same limits, budget and cache (a body answered at either path is answered again at both). Only the GraphQL path is served here: the backend's REST paths are not. A GraphQL door to the chain's subgraph for existing clients: a query within the limits is forwarded as sent and the subgraph's answer passed on unchanged (status, `content-type`, body). Limits and why: body at most 49152 bytes (413): a query within the length cap plus its variables fits, nothing larger is parsed; query at most 40000 characters: the venue's own door documents this cap; depth at most 10 (introspection not counted, fragments flattened): real client queries are 3 to 4 deep; at most 30 aliases: aliases multiply a list; at most 20000 rows, counted as graph-node counts complexity (`first` of each list times its parents', 100 when absent): one answer must not drain the upstream; upstream timeout 5000 ms (504): a hanging upstream must not hold connections; identical requests within 2000 ms share one upstream request and its answer. A query over the depth, alias, length or row limit is answered 200 with `errors` in graph-node's words, as graph-node answers its own limits; `first` above 1000 and `skip` above 5000 are forwarded and refused by the subgraph. Introspection is answered. One per-IP budget covers both chains; its figures are in the `x-ratelimit-*` headers.
         */
        post: operations["querySubgraphAtMetadataBackendPath"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/onboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Relay a gasless onboarding (delegation and/or permit) as one atomic user operation */
        post: operations["onboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/onboard/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The outcome of an onboarding, without waiting */
        get: operations["getOnboarding"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asyncapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The AsyncAPI 3.0 document of the price stream and the internal NATS interface */
        get: operations["getAsyncApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        PriceRow: {
            feed_id: string;
            pair: string;
            from: string;
            to: string;
            bid: number;
            mid: number;
            ask: number;
            isMarketOpen: boolean;
            isDayTradingClosed: boolean;
            /** @description Whole seconds until `isDayTradingClosed` flips, rounded up; -1 when it never flips */
            secondsToToggleIsDayTradingClosed: number;
            timestampSeconds: number;
            schedule: {
                /** @description Schedule id, as in GET /v1/market-hours */
                id: number;
                /** @description true for a market that never closes */
                alwaysOpen: boolean;
                /**
                 * @description IANA time zone of the reference market
                 * @example America/New_York
                 */
                timezone: string;
                /**
                 * @description The weekly hours in `timezone`, seven entries, Monday first; each `O` (open all day), `C` (closed) or `HHMM-HHMM` sessions joined by `&`, half-open, `2400` only as an end. Holidays are in GET /v1/market-hours.
                 * @example [
                 *       "0930-1600",
                 *       "0930-1600",
                 *       "0930-1600",
                 *       "0930-1600",
                 *       "0930-1600",
                 *       "C",
                 *       "C"
                 *     ]
                 */
                openingHours: string[];
                dayTradingHours: {
                    /**
                     * @description When day trading opens: `open+HH:MM`, that long after each session opens
                     * @example open+00:01
                     */
                    from: string;
                    /**
                     * @description When day trading ends: `close-HH:MM`, that long before each session closes
                     * @example close-00:15
                     */
                    to: string;
                };
            };
        };
        /** @description What the datafeed supports (UDF `/config`) */
        UdfConfig: {
            supported_resolutions: ("1" | "5" | "15" | "60" | "240" | "1D")[];
            /** @constant */
            supports_search: true;
            /** @constant */
            supports_group_request: false;
            /** @constant */
            supports_marks: false;
            /** @constant */
            supports_timescale_marks: false;
            /** @constant */
            supports_time: true;
            exchanges: {
                value: string;
                name: string;
                desc: string;
            }[];
            symbols_types: {
                name: string;
                value: string;
            }[];
        };
        /** @description Every failure of a UDF route, as UDF clients read it (TradingView's adapter reads `s` and `errmsg`) */
        UdfError: {
            /** @constant */
            s: "error";
            errmsg: string;
        };
        /** @description A pair as TradingView's LibrarySymbolInfo (UDF `/symbols`) */
        UdfSymbolInfo: {
            /** @description The pair symbol, e.g. BTC-USD (a legacy spelling resolves to it) */
            name: string;
            /** @description What to send as `symbol` to /history: the pair symbol */
            ticker: string;
            full_name: string;
            description: string;
            /** @enum {string} */
            type: "crypto" | "forex" | "commodity" | "index" | "stock";
            exchange: string;
            listed_exchange: string;
            /**
             * @description Trading hours in TradingView's session syntax, in `timezone`: `24x7`, or `HHMM-HHMM[,…]:days|…` (days 1 = Sunday … 7 = Saturday; `F` starts the previous day)
             * @example 0930-1600:23456
             */
            session: string;
            /** @description Whole days without trading in the calendar, `YYYYMMDD,…` */
            session_holidays: string;
            /** @description Days with other hours (early closes), `SESSION:YYYYMMDD;…` */
            corrections: string;
            /**
             * @description The exchange time zone (IANA name) the session is written in
             * @example America/New_York
             */
            timezone: string;
            /** @constant */
            minmov: 1;
            /**
             * @description 10 to the power of the pair's price decimals
             * @example 100
             */
            pricescale: number;
            /** @constant */
            format: "price";
            /** @constant */
            has_intraday: true;
            /** @constant */
            has_daily: true;
            /** @constant */
            has_weekly_and_monthly: false;
            intraday_multipliers: string[];
            daily_multipliers: string[];
            supported_resolutions: ("1" | "5" | "15" | "60" | "240" | "1D")[];
            /**
             * @description Candles carry no volume
             * @constant
             */
            visible_plots_set: "ohlc";
            /** @constant */
            data_status: "streaming";
            currency_code: string;
        };
        UdfSearchResult: components["schemas"]["UdfSearchItem"][];
        UdfSearchItem: {
            symbol: string;
            full_name: string;
            description: string;
            exchange: string;
            ticker: string;
            /** @enum {string} */
            type: "crypto" | "forex" | "commodity" | "index" | "stock";
        };
        /** @description Bars of mid prices, columns aligned by index (UDF `/history`); no volume */
        UdfHistory: {
            /** @constant */
            s: "ok";
            /** @description Bar times: the start of each period, Unix seconds */
            t: number[];
            o: number[];
            h: number[];
            l: number[];
            c: number[];
        } | {
            /** @constant */
            s: "no_data";
            /** @description The start of the latest bar before `from`, when there is one */
            nextTime?: number;
        };
        PriceSnapshot: {
            prices: components["schemas"]["PriceRow"][];
            stale: boolean;
            generatedAt: number;
        };
        StatusRecord: {
            /** @enum {string} */
            status: "ok" | "degraded";
            prices: {
                pairs: number;
                stale: boolean;
                lastTickAt: number;
            };
            time: number;
        };
        FrameworkError: {
            error: string;
            message: string;
            issues?: unknown[];
            details?: unknown;
        } & {
            [key: string]: unknown;
        };
        UpstreamProxyError: {
            error: string;
        };
        RestingOrder: {
            id: string;
            trader: string;
            isActive: boolean;
            isBuy: boolean;
            isDayTrade: boolean;
            /** @enum {string} */
            limitType: "LIMIT" | "STOP";
            openPrice: number;
            stopLossPrice: number;
            takeProfitPrice: number;
            collateral: number;
            notionalInUsd: number;
            notionalInUnits: number;
            leverage: number;
            orderId: string;
            initiatedAt: string;
            updatedAt: string;
            pair: {
                id: string;
                from: string;
                to: string;
            };
        };
        OpenTrade: {
            id: string;
            trader: string;
            pair: {
                id: string;
                from: string;
                to: string;
            };
            index: number;
            isBuy: boolean;
            collateral: number;
            leverage: number;
            openPrice: number;
            stopLossPrice: number | null;
            takeProfitPrice: number | null;
            notionalInUsd: number | null;
            notionalInUnits: number | null;
            funding: number | null;
            rollover: number | null;
            openedAt: string;
        };
        ExecutedOrder: {
            id: string;
            trader: string;
            pair: {
                id: string;
                from: string;
                to: string;
            };
            tradeId: string | null;
            isBuy: boolean;
            orderType: string;
            orderAction: string;
            price: number | null;
            priceAfterImpact: number | null;
            priceImpactPercent: number | null;
            collateral: number | null;
            leverage: number | null;
            notionalInUsd: number | null;
            notionalInUnits: number | null;
            profitPercent: number | null;
            totalProfitPercent: number | null;
            amountSentToTrader: number | null;
            rolloverFee: number | null;
            fundingFee: number | null;
            initiatedAt: string;
            executedAt: string | null;
            executedTx: string | null;
            isCancelled: boolean;
            cancelReason: string | null;
        };
        ListedPair: {
            id: string;
            pair: string | null;
            from: string;
            to: string;
            feed: string | null;
            group: {
                id: string;
                name: string;
                minLeverage: number | null;
                maxLeverage: number | null;
            };
            tradeable: boolean;
            longOI: number | null;
            shortOI: number | null;
            maxOI: number | null;
            makerFeeP: number | null;
            takerFeeP: number | null;
            spreadP: number | null;
            maxLeverage: number | null;
            overnightMaxLeverage: number | null;
            lastTradePrice: number | null;
            curFundingLong: number | null;
            curFundingShort: number | null;
            curRollover: number | null;
        };
        OnboardingState: {
            onboarded: boolean;
            missing: ("delegation" | "allowance")[];
            delegate: string;
            allowance: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPrices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The snapshot; `stale` is the verdict for the feed as a whole */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "prices": [
                     *         {
                     *           "feed_id": "0xe62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43",
                     *           "pair": "BTC-USD",
                     *           "from": "BTC",
                     *           "to": "USD",
                     *           "bid": 94995.12,
                     *           "mid": 95000,
                     *           "ask": 95004.88,
                     *           "isMarketOpen": true,
                     *           "isDayTradingClosed": false,
                     *           "secondsToToggleIsDayTradingClosed": -1,
                     *           "timestampSeconds": 1795000000,
                     *           "schedule": {
                     *             "id": 0,
                     *             "alwaysOpen": true,
                     *             "timezone": "UTC",
                     *             "openingHours": [
                     *               "O",
                     *               "O",
                     *               "O",
                     *               "O",
                     *               "O",
                     *               "O",
                     *               "O"
                     *             ],
                     *             "dayTradingHours": {
                     *               "from": "open+00:01",
                     *               "to": "close-00:15"
                     *             }
                     *           }
                     *         },
                     *         {
                     *           "feed_id": "0x49f6b65cb1de6b10eaf75e7c03ca029c306d0357e91b5311b175084a5ad55688",
                     *           "pair": "AAPL-USD",
                     *           "from": "AAPL",
                     *           "to": "USD",
                     *           "bid": 229.88,
                     *           "mid": 229.9,
                     *           "ask": 229.92,
                     *           "isMarketOpen": true,
                     *           "isDayTradingClosed": false,
                     *           "secondsToToggleIsDayTradingClosed": 5400,
                     *           "timestampSeconds": 1795000000,
                     *           "schedule": {
                     *             "id": 5,
                     *             "alwaysOpen": false,
                     *             "timezone": "America/New_York",
                     *             "openingHours": [
                     *               "0930-1600",
                     *               "0930-1600",
                     *               "0930-1600",
                     *               "0930-1600",
                     *               "0930-1600",
                     *               "C",
                     *               "C"
                     *             ],
                     *             "dayTradingHours": {
                     *               "from": "open+00:01",
                     *               "to": "close-00:15"
                     *             }
                     *           }
                     *         }
                     *       ],
                     *       "stale": false,
                     *       "generatedAt": 1795000000123
                     *     }
                     */
                    "application/json": components["schemas"]["PriceSnapshot"];
                };
            };
            /** @description Validation failed: the body carries `issues`, zod's raw validation issues */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Internal Server Error",
                     *       "message": "unexpected error"
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description The feed has delivered no ticks yet; retry */
            503: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Service Unavailable",
                     *       "message": "the feed has delivered no ticks yet; retry shortly",
                     *       "stale": true
                     *     }
                     */
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: unknown[];
                        details?: unknown;
                        /** @constant */
                        stale: true;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    getPrice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Pair symbol as in the price rows, e.g. BTC-USD; a legacy spelling from the pairs list (`SPX-USD` for `US500-USD`; CL, HG, SPX, NDX, DJI, DAX, FTSE, HSI, NIK) is accepted, and answers name the pair by its symbol */
                pair: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pair's row, as in the snapshot */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "feed_id": "0xe62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43",
                     *       "pair": "BTC-USD",
                     *       "from": "BTC",
                     *       "to": "USD",
                     *       "bid": 94995.12,
                     *       "mid": 95000,
                     *       "ask": 95004.88,
                     *       "isMarketOpen": true,
                     *       "isDayTradingClosed": false,
                     *       "secondsToToggleIsDayTradingClosed": -1,
                     *       "timestampSeconds": 1795000000,
                     *       "schedule": {
                     *         "id": 0,
                     *         "alwaysOpen": true,
                     *         "timezone": "UTC",
                     *         "openingHours": [
                     *           "O",
                     *           "O",
                     *           "O",
                     *           "O",
                     *           "O",
                     *           "O",
                     *           "O"
                     *         ],
                     *         "dayTradingHours": {
                     *           "from": "open+00:01",
                     *           "to": "close-00:15"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["PriceRow"];
                };
            };
            /** @description Validation failed: the body carries `issues`, zod's raw validation issues */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Unknown pair, or a listed pair without a price; `details.pair` names it */
            404: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Not Found",
                     *       "message": "unknown pair \"DOGE-USD\"; symbols look like BTC-USD (see GET /v1/pairs)",
                     *       "details": {
                     *         "pair": "DOGE-USD"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Internal Server Error",
                     *       "message": "unexpected error"
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description The feed has delivered no ticks yet */
            503: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Service Unavailable",
                     *       "message": "the feed has delivered no ticks yet; retry shortly",
                     *       "stale": true
                     *     }
                     */
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: unknown[];
                        details?: unknown;
                        /** @constant */
                        stale: true;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    openPriceStream: {
        parameters: {
            query?: {
                /** @description Comma-separated pair symbols; omitted means every asset. A legacy spelling from the pairs list (`SPX-USD` for `US500-USD`; CL, HG, SPX, NDX, DJI, DAX, FTSE, HSI, NIK) is accepted, and answers name the pair by its symbol */
                pairs?: string;
                /** @description `true`: the snapshot, tick and gap frames carry their `cursor` (events always do) */
                cursor?: "true" | "false";
                /** @description A cursor (`<epoch>-<position>`) to resume after: the first frame is `resumed`, with `recovered: true` and the ticks after it, or `recovered: false` and a snapshot. Overrides `Last-Event-ID` */
                from?: string;
                /** @description `compact`: compact frames: the snapshot adds `ids` (the pair id of each row), ticks are `t` frames with the pair id and the changing fields by position, and a pair's static part (feed id, symbols, schedule) comes in a `static` frame only when the connection does not have it; `full` (the default): rows. Server-Sent Events name the events `t` and `static` */
                format?: "full" | "compact";
                /** @description What a recovered resume (`from`, `Last-Event-ID`) replays: `all` (the default) every tick after the cursor; `latest` each pair's latest tick, after one `gap` whose `dropped` counts the ticks folded */
                replay?: "all" | "latest";
                /** @description Whole seconds from 1 to 60: after that long with nothing sent, a `heartbeat` frame (`{"type":"heartbeat","time":<ms>}`, with the latest `cursor` when frames carry cursors) */
                heartbeat?: string;
                /** @description `real_time` (the default): every tick as it comes; `fixed_rate@<n>ms`: at the end of each window, the latest row of each pair that changed in it, as a `tick` frame whose seq jump is the ticks folded (not a loss) */
                rate?: "real_time" | "fixed_rate@50ms" | "fixed_rate@200ms" | "fixed_rate@1000ms";
                /** @description `true`, over WebSocket: each window's frames at a fixed rate, at real time the ticks sent together (up to 16 KiB), in one `batch` frame, in their order (400 with `Accept: text/event-stream`) */
                batch?: "true" | "false";
            };
            header?: {
                /** @description `text/event-stream` for Server-Sent Events instead of an upgrade */
                accept?: string;
                /** @description Server-Sent Events: the cursor to resume after, as `from` */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the stream is open */
            101: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server-Sent Events (with `Accept: text/event-stream`): `event: <snapshot|tick|gap|resumed|heartbeat>`, `id: <cursor>`, `data: <the frame as JSON>`, and a comment every 5 s; the response ends at shutdown */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example event: snapshot
                     *     id: mwysrltn-310
                     *     data: {"type":"snapshot","seq":{"BTC-USD":1042},"data":[...],"cursor":"mwysrltn-310"}
                     *
                     *     event: tick
                     *     id: mwysrltn-311
                     *     data: {"type":"tick","seq":1043,"data":{...},"cursor":"mwysrltn-311"}
                     */
                    "text/event-stream": string;
                };
            };
            /** @description Invalid query (`pairs`, an unknown `format`, `replay` or `rate`, a `heartbeat` out of range, a parameter given twice), or a malformed cursor (`from`, `Last-Event-ID`) */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Browser origin not allowed (bare for an upgrade; the framework body for Server-Sent Events) */
            403: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A plain GET: neither a WebSocket upgrade nor `Accept: text/event-stream` */
            426: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Upgrade Required",
                     *       "message": "this is a WebSocket endpoint: connect with a WebSocket client"
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Too many connections or upgrades from this address */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Seconds to wait */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description This replica holds its maximum of connections, or is shutting down */
            503: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Seconds to wait */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Service Unavailable",
                     *       "message": "USD-KRW is not tradeable yet",
                     *       "details": {
                     *         "pair": "USD-KRW",
                     *         "pairId": 53,
                     *         "chainId": 42161
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Any other refusal, in the framework shape */
            default: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Internal Server Error",
                     *       "message": "unexpected error"
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
    openCandleStream: {
        parameters: {
            query: {
                /** @description Comma-separated pair symbols, or their legacy spellings (`SPX-USD` for `US500-USD`) */
                pairs: string;
                /** @description The candles' width, as `POST /v1/ohlc` and the UDF routes take it: minutes, or `1D` (`D`) for a UTC day */
                resolution: "1" | "5" | "15" | "60" | "240" | "1D" | "D";
                /** @description Whole seconds from 1 to 60: after that long with nothing sent, a `heartbeat` frame (`{"type":"heartbeat","time":<ms>}`) */
                heartbeat?: string;
            };
            header?: {
                /** @description `text/event-stream` for Server-Sent Events instead of an upgrade */
                accept?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching Protocols: the stream is open */
            101: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Server-Sent Events (with `Accept: text/event-stream`): `event: <snapshot|candle|gap|heartbeat>`, `data: <the frame as JSON>`, and a comment every 5 s; the response ends at shutdown */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example event: snapshot
                     *     data: {"type":"snapshot","data":[...]}
                     *
                     *     event: candle
                     *     data: {"type":"candle","data":{"from":"BTC","to":"USD","time":1767225660000,"open":87412.5,"high":87430.25,"low":87401.75,"close":87420,"resolution":"1","closed":false}}
                     */
                    "text/event-stream": string;
                };
            };
            /** @description Missing, repeated or unknown parameters, an unlisted pair, an unknown resolution, or a `heartbeat` out of range */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Browser origin not allowed (bare for an upgrade; the framework body for Server-Sent Events) */
            403: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A plain GET: neither a WebSocket upgrade nor `Accept: text/event-stream` */
            426: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Upgrade Required",
                     *       "message": "this is a WebSocket endpoint: connect with a WebSocket client"
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Too many stream connections (price and candle together) or upgrades from this address */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Seconds to wait */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description This replica holds its maximum of stream connections, or is shutting down */
            503: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Seconds to wait */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Service Unavailable",
                     *       "message": "USD-KRW is not tradeable yet",
                     *       "details": {
                     *         "pair": "USD-KRW",
                     *         "pairId": 53,
                     *         "chainId": 42161
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Any other refusal, in the framework shape */
            default: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Internal Server Error",
                     *       "message": "unexpected error"
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
    getStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The status record */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "prices": {
                     *         "pairs": 82,
                     *         "stale": false,
                     *         "lastTickAt": 1795000000098
                     *       },
                     *       "time": 1795000000120
                     *     }
                     */
                    "application/json": components["schemas"]["StatusRecord"];
                };
            };
            /** @description Validation failed: the body carries `issues`, zod's raw validation issues */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
    getMarketHours: {
        parameters: {
            query?: {
                pair?: "BTC-USD" | "ETH-USD" | "EUR-USD" | "GBP-USD" | "USD-JPY" | "XAU-USD" | "XCU-USD" | "WTI-USD" | "XAG-USD" | "SOL-USD" | "US500-USD" | "US30-USD" | "US100-USD" | "JP225-JPY" | "UK100-GBP" | "GER40-EUR" | "USD-CAD" | "USD-MXN" | "NVDA-USD" | "GOOG-USD" | "AMZN-USD" | "META-USD" | "TSLA-USD" | "AAPL-USD" | "MSFT-USD" | "USD-CHF" | "AUD-USD" | "NZD-USD" | "XPD-USD" | "XPT-USD" | "HK50-HKD" | "COIN-USD" | "HOOD-USD" | "MSTR-USD" | "CRCL-USD" | "BMNR-USD" | "SBET-USD" | "GLXY-USD" | "BNB-USD" | "XRP-USD" | "TRX-USD" | "HYPE-USD" | "LINK-USD" | "ADA-USD" | "PLTR-USD" | "AMD-USD" | "NFLX-USD" | "ORCL-USD" | "RIVN-USD" | "COST-USD" | "XOM-USD" | "CVX-USD" | "URA-USD" | "USD-KRW" | "KR2550-USD" | "BRENT-USD" | "GEV-USD" | "SHEL-USD" | "UNG-USD" | "XLE-USD" | "ARM-USD" | "ASML-USD" | "AVGO-USD" | "CAT-USD" | "INTC-USD" | "SMCI-USD" | "TSM-USD" | "MU-USD" | "SNDK-USD" | "HYG-USD" | "TLT-USD" | "MP-USD" | "DRAM-USD" | "REMX-USD" | "BB-USD" | "CRWV-USD" | "DELL-USD" | "MRNA-USD" | "MRVL-USD" | "NBIS-USD" | "LLY-USD" | "SKHY-USD" | "SPCX-USD" | "HG-USD" | "CL-USD" | "SPX-USD" | "DJI-USD" | "NDX-USD" | "NIK-JPY" | "FTSE-GBP" | "DAX-EUR" | "HSI-HKD";
                at?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Schedules and pairs; cache it (Cache-Control, ETag) */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    etag: string;
                    "cache-control": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "at": 1795000000,
                     *       "schedules": [
                     *         {
                     *           "id": 5,
                     *           "name": "US stocks and ETFs (NYSE / Nasdaq)",
                     *           "alwaysOpen": false,
                     *           "timezone": "America/New_York",
                     *           "openingHours": "America/New_York;0930-1600,0930-1600,0930-1600,0930-1600,0930-1600,C,C;20261126/C,20261127/0930-1300",
                     *           "validFrom": "2026-01-01",
                     *           "validThrough": "2027-12-31"
                     *         }
                     *       ],
                     *       "pairs": [
                     *         {
                     *           "pair": "AAPL-USD",
                     *           "pairIndex": 57,
                     *           "scheduleId": 5,
                     *           "state": {
                     *             "isMarketOpen": true,
                     *             "isDayTradingClosed": false,
                     *             "secondsToToggleIsDayTradingClosed": 5400,
                     *             "nextOpen": 1795072000,
                     *             "nextClose": 1795005400
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        at?: number;
                        schedules: {
                            id: number;
                            name: string;
                            alwaysOpen: boolean;
                            timezone: string;
                            openingHours: string;
                            validFrom: string | null;
                            validThrough: string | null;
                        }[];
                        pairs: {
                            pair: string;
                            pairIndex: number;
                            scheduleId: number;
                            state?: {
                                isMarketOpen: boolean;
                                isDayTradingClosed: boolean;
                                secondsToToggleIsDayTradingClosed: number;
                                nextOpen: number | null;
                                nextClose: number | null;
                            };
                        }[];
                    };
                };
            };
            /** @description Not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed: the body carries `issues`, zod's raw validation issues */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
    getOhlc: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "pair": "BTC-USD",
                 *       "fromTimestampSeconds": 1794999700,
                 *       "toTimestampSeconds": 1795000000,
                 *       "resolution": "1"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Pair symbol, e.g. BTC-USD, or its legacy spelling from the pairs list (SPX-USD); candles name the pair by its symbol
                     * @example BTC-USD
                     */
                    pair: string;
                    fromTimestampSeconds: number;
                    toTimestampSeconds: number;
                    resolution: ("1" | "5" | "15" | "60" | "240" | "1D") | (1 | 5 | 15 | 60 | 240);
                };
            };
        };
        responses: {
            /** @description Candles; page long ranges from `lastRequestTimestamp` */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "from": "BTC",
                     *           "to": "USD",
                     *           "time": 1794999700,
                     *           "open": 94950,
                     *           "high": 95010.5,
                     *           "low": 94940,
                     *           "close": 95002
                     *         },
                     *         {
                     *           "from": "BTC",
                     *           "to": "USD",
                     *           "time": 1794999760,
                     *           "open": 95002,
                     *           "high": 95020,
                     *           "low": 94990.25,
                     *           "close": 95000
                     *         }
                     *       ],
                     *       "lastRequestTimestamp": 1795000000
                     *     }
                     */
                    "application/json": {
                        data: {
                            from: string;
                            to: string;
                            /**
                             * @description Start of the candle's period, milliseconds since the epoch (the request's bounds are seconds)
                             * @example 1767225600000
                             */
                            time: number;
                            open: number;
                            high: number;
                            low: number;
                            close: number;
                        }[];
                        /**
                         * @description Unix seconds where this answer ends; below toTimestampSeconds, ask again from it
                         * @example 1767229200
                         */
                        lastRequestTimestamp: number;
                    };
                };
            };
            /** @description Invalid request (upstream-proxy shape) */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "toTimestampSeconds must be after fromTimestampSeconds"
                     *     }
                     */
                    "application/json": components["schemas"]["UpstreamProxyError"];
                };
            };
            /** @description Unknown pair (upstream-proxy shape) */
            404: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "unknown pair DOGE-USD"
                     *     }
                     */
                    "application/json": components["schemas"]["UpstreamProxyError"];
                };
            };
            /** @description Request body larger than the limit (upstream-proxy shape) */
            413: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "request body is larger than 65536 bytes"
                     *     }
                     */
                    "application/json": components["schemas"]["UpstreamProxyError"];
                };
            };
            /** @description Rate limit exceeded; `error` states the seconds to wait (upstream-proxy shape) */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "rate limit exceeded: retry in 7 seconds"
                     *     }
                     */
                    "application/json": components["schemas"]["UpstreamProxyError"];
                };
            };
            /** @description Unexpected error (upstream-proxy shape) */
            500: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "unexpected error"
                     *     }
                     */
                    "application/json": components["schemas"]["UpstreamProxyError"];
                };
            };
            /** @description The candle store cannot be reached, or the history source failed (upstream-proxy shape) */
            502: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "the history source answered HTTP 500; retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["UpstreamProxyError"];
                };
            };
            /** @description The history source's call budget is spent (upstream-proxy shape) */
            503: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "the history source's call budget is spent; retry in 12 s"
                     *     }
                     */
                    "application/json": components["schemas"]["UpstreamProxyError"];
                };
            };
            /** @description The history source did not answer within the deadline (upstream-proxy shape) */
            504: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "the history source did not answer within 5000 ms; retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["UpstreamProxyError"];
                };
            };
        };
    };
    getUdfConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What the datafeed supports */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "supported_resolutions": [
                     *         "1",
                     *         "5",
                     *         "15",
                     *         "60",
                     *         "240",
                     *         "1D"
                     *       ],
                     *       "supports_search": true,
                     *       "supports_group_request": false,
                     *       "supports_marks": false,
                     *       "supports_timescale_marks": false,
                     *       "supports_time": true,
                     *       "exchanges": [
                     *         {
                     *           "value": "VENUE",
                     *           "name": "VENUE",
                     *           "desc": "The venue"
                     *         }
                     *       ],
                     *       "symbols_types": [
                     *         {
                     *           "name": "All types",
                     *           "value": ""
                     *         },
                     *         {
                     *           "name": "crypto",
                     *           "value": "crypto"
                     *         },
                     *         {
                     *           "name": "forex",
                     *           "value": "forex"
                     *         },
                     *         {
                     *           "name": "commodity",
                     *           "value": "commodity"
                     *         },
                     *         {
                     *           "name": "index",
                     *           "value": "index"
                     *         },
                     *         {
                     *           "name": "stock",
                     *           "value": "stock"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["UdfConfig"];
                };
            };
            /** @description Rate limit exceeded; `errmsg` states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "rate limit exceeded: retry in 7 seconds"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "unexpected error"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
        };
    };
    resolveUdfSymbol: {
        parameters: {
            query: {
                /** @description A pair symbol or its legacy spelling */
                symbol: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pair's session, time zone and price scale */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "AAPL-USD",
                     *       "ticker": "AAPL-USD",
                     *       "full_name": "VENUE:AAPL-USD",
                     *       "description": "AAPL / USD",
                     *       "type": "stock",
                     *       "exchange": "VENUE",
                     *       "listed_exchange": "VENUE",
                     *       "session": "0930-1600:23456",
                     *       "session_holidays": "20260101,20260119,20260216,20260403,20260525,20260619,20260703,20260907,20261126,20261225",
                     *       "corrections": "0930-1300:20261127;0930-1300:20261224",
                     *       "timezone": "America/New_York",
                     *       "minmov": 1,
                     *       "pricescale": 100,
                     *       "format": "price",
                     *       "has_intraday": true,
                     *       "has_daily": true,
                     *       "has_weekly_and_monthly": false,
                     *       "intraday_multipliers": [
                     *         "1",
                     *         "5",
                     *         "15",
                     *         "60",
                     *         "240"
                     *       ],
                     *       "daily_multipliers": [
                     *         "1"
                     *       ],
                     *       "supported_resolutions": [
                     *         "1",
                     *         "5",
                     *         "15",
                     *         "60",
                     *         "240",
                     *         "1D"
                     *       ],
                     *       "visible_plots_set": "ohlc",
                     *       "data_status": "streaming",
                     *       "currency_code": "USD"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfSymbolInfo"];
                };
            };
            /** @description Invalid parameters */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "invalid request: resolution: Invalid option: expected one of \"1\"|\"5\"|\"15\"|\"60\"|\"240\"|\"1D\"|\"D\""
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
            /** @description Unknown symbol */
            404: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "unknown symbol \"DOGE-USD\"; symbols look like BTC-USD"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
            /** @description Rate limit exceeded; `errmsg` states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "rate limit exceeded: retry in 7 seconds"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "unexpected error"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
        };
    };
    searchUdfSymbols: {
        parameters: {
            query?: {
                /** @description Text in the symbol or description, any case */
                query?: string;
                /** @description One of the config's symbol types; empty: all */
                type?: string;
                /** @description Empty or the venue (VENUE) */
                exchange?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matching pairs */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "symbol": "BTC-USD",
                     *         "full_name": "VENUE:BTC-USD",
                     *         "description": "BTC / USD",
                     *         "exchange": "VENUE",
                     *         "ticker": "BTC-USD",
                     *         "type": "crypto"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["UdfSearchResult"];
                };
            };
            /** @description Invalid parameters */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "invalid request: resolution: Invalid option: expected one of \"1\"|\"5\"|\"15\"|\"60\"|\"240\"|\"1D\"|\"D\""
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
            /** @description Rate limit exceeded; `errmsg` states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "rate limit exceeded: retry in 7 seconds"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "unexpected error"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
        };
    };
    getUdfHistory: {
        parameters: {
            query: {
                /** @description A pair symbol (BTC-USD) or its legacy spelling (SPX-USD) */
                symbol: string;
                /** @description A bar width; `D` is read as `1D` */
                resolution: "1" | "5" | "15" | "60" | "240" | "1D" | "D";
                from: number;
                to: number;
                countback?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bars of [from, to), the earliest first, at most CANDLES_MAX_PER_RESPONSE; `no_data` when none */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "ok",
                     *       "t": [
                     *         1767225600,
                     *         1767229200
                     *       ],
                     *       "o": [
                     *         87012.5,
                     *         87120.25
                     *       ],
                     *       "h": [
                     *         87200,
                     *         87350.75
                     *       ],
                     *       "l": [
                     *         86950.5,
                     *         87080
                     *       ],
                     *       "c": [
                     *         87120.25,
                     *         87301.5
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["UdfHistory"];
                };
            };
            /** @description Invalid parameters */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "invalid request: resolution: Invalid option: expected one of \"1\"|\"5\"|\"15\"|\"60\"|\"240\"|\"1D\"|\"D\""
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
            /** @description Unknown symbol */
            404: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "unknown symbol \"DOGE-USD\"; symbols look like BTC-USD"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
            /** @description Rate limit exceeded; `errmsg` states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "rate limit exceeded: retry in 7 seconds"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "unexpected error"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
            /** @description The candle store or the history source failed */
            502: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "the history source answered HTTP 500; retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
            /** @description The history source's call budget is spent */
            503: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "the history source's call budget is spent; retry in 12 s"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
            /** @description The history source did not answer within the deadline (HISTORY_TIMEOUT_MS) */
            504: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "the history source did not answer within 5000 ms; retry shortly"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
        };
    };
    getUdfTime: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unix seconds, as plain text */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /** @example 1767225600 */
                    "text/plain": string;
                };
            };
            /** @description Rate limit exceeded; `errmsg` states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "rate limit exceeded: retry in 7 seconds"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "s": "error",
                     *       "errmsg": "unexpected error"
                     *     }
                     */
                    "application/json": components["schemas"]["UdfError"];
                };
            };
        };
    };
    getDepth: {
        parameters: {
            query?: {
                chainId?: 42161 | 421614;
            };
            header?: never;
            path: {
                /** @description Pair symbol as in the price rows, e.g. BTC-USD; a legacy spelling from the pairs list (`SPX-USD` for `US500-USD`; CL, HG, SPX, NDX, DJI, DAX, FTSE, HSI, NIK) is accepted, and answers name the pair by its symbol */
                pair: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Levels per side and available notional */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pair": "BTC-USD",
                     *       "chainId": 42161,
                     *       "bid": 94995.12,
                     *       "mid": 95000,
                     *       "ask": 95004.88,
                     *       "timestampSeconds": 1795000000,
                     *       "long": {
                     *         "availableNotionalUsd": 4250000,
                     *         "levels": [
                     *           {
                     *             "notionalUsd": 10000,
                     *             "fillPrice": 95009.63,
                     *             "impactPercent": 0.0101
                     *           },
                     *           {
                     *             "notionalUsd": 100000,
                     *             "fillPrice": 95052.1,
                     *             "impactPercent": 0.0548
                     *           }
                     *         ]
                     *       },
                     *       "short": {
                     *         "availableNotionalUsd": 3900000,
                     *         "levels": [
                     *           {
                     *             "notionalUsd": 10000,
                     *             "fillPrice": 94990.37,
                     *             "impactPercent": -0.0101
                     *           },
                     *           {
                     *             "notionalUsd": 100000,
                     *             "fillPrice": 94947.9,
                     *             "impactPercent": -0.0548
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        pair: string;
                        chainId: number;
                        bid: number;
                        mid: number;
                        ask: number;
                        timestampSeconds: number;
                        long: {
                            availableNotionalUsd: number;
                            levels: {
                                notionalUsd: number;
                                fillPrice: number;
                                impactPercent: number;
                            }[];
                        };
                        short: {
                            availableNotionalUsd: number;
                            levels: {
                                notionalUsd: number;
                                fillPrice: number;
                                impactPercent: number;
                            }[];
                        };
                    };
                };
            };
            /** @description Validation failed: the body carries `issues`, zod's raw validation issues */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Not Found",
                     *       "message": "unknown pair \"DOGE-USD\"; symbols look like BTC-USD (see GET /v1/pairs)",
                     *       "details": {
                     *         "pair": "DOGE-USD"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description The indexed data source cannot be reached, timed out or answered errors; `details` names the chain and reason */
            502: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Gateway",
                     *       "message": "the indexed source did not answer in time",
                     *       "details": {
                     *         "chainId": 42161,
                     *         "reason": "timeout"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description The pair is not tradeable yet (no open-interest ceiling), or has no live price; `details` says which */
            503: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Service Unavailable",
                     *       "message": "USD-KRW is not tradeable yet",
                     *       "details": {
                     *         "pair": "USD-KRW",
                     *         "pairId": 53,
                     *         "chainId": 42161
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
    getQuote: {
        parameters: {
            query: {
                side: "long" | "short";
                notionalUsd: number;
                chainId?: 42161 | 421614;
            };
            header?: never;
            path: {
                /** @description Pair symbol as in the price rows, e.g. BTC-USD; a legacy spelling from the pairs list (`SPX-USD` for `US500-USD`; CL, HG, SPX, NDX, DJI, DAX, FTSE, HSI, NIK) is accepted, and answers name the pair by its symbol */
                pair: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The quote; `availableNotionalUsd` is 0 for a pair that is not tradeable yet */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "pair": "BTC-USD",
                     *       "chainId": 42161,
                     *       "side": "long",
                     *       "notionalUsd": 25000,
                     *       "bid": 94995.12,
                     *       "mid": 95000,
                     *       "ask": 95004.88,
                     *       "timestampSeconds": 1795000000,
                     *       "fillPrice": 95016.2,
                     *       "impactPercent": 0.017,
                     *       "availableNotionalUsd": 4250000
                     *     }
                     */
                    "application/json": {
                        pair: string;
                        chainId: number;
                        /** @enum {string} */
                        side: "long" | "short";
                        notionalUsd: number;
                        bid: number;
                        mid: number;
                        ask: number;
                        timestampSeconds: number;
                        fillPrice: number;
                        impactPercent: number;
                        availableNotionalUsd: number;
                    };
                };
            };
            /** @description Validation failed: the body carries `issues`, zod's raw validation issues */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Not Found",
                     *       "message": "unknown pair \"DOGE-USD\"; symbols look like BTC-USD (see GET /v1/pairs)",
                     *       "details": {
                     *         "pair": "DOGE-USD"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description The indexed data source cannot be reached, timed out or answered errors; `details` names the chain and reason */
            502: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Gateway",
                     *       "message": "the indexed source did not answer in time",
                     *       "details": {
                     *         "chainId": 42161,
                     *         "reason": "timeout"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description No live price for the pair */
            503: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Service Unavailable",
                     *       "message": "USD-KRW is not tradeable yet",
                     *       "details": {
                     *         "pair": "USD-KRW",
                     *         "pairId": 53,
                     *         "chainId": 42161
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
    listPairs: {
        parameters: {
            query?: {
                chainId?: 42161 | 421614;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pairs by pairIndex */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "chainId": 42161,
                     *       "count": 1,
                     *       "pairs": [
                     *         {
                     *           "id": "0",
                     *           "pair": "BTC-USD",
                     *           "from": "BTC",
                     *           "to": "USD",
                     *           "feed": "0xe62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43",
                     *           "group": {
                     *             "id": "0",
                     *             "name": "crypto",
                     *             "minLeverage": 1.1,
                     *             "maxLeverage": 100
                     *           },
                     *           "tradeable": true,
                     *           "longOI": 12.5,
                     *           "shortOI": 9.75,
                     *           "maxOI": 5000000,
                     *           "makerFeeP": 0.03,
                     *           "takerFeeP": 0.06,
                     *           "spreadP": 0.01,
                     *           "maxLeverage": 100,
                     *           "overnightMaxLeverage": 0,
                     *           "lastTradePrice": 95000,
                     *           "curFundingLong": 0.0001,
                     *           "curFundingShort": -0.0001,
                     *           "curRollover": 0
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        chainId: number;
                        count: number;
                        pairs: components["schemas"]["ListedPair"][];
                    };
                };
            };
            /** @description Validation failed: the body carries `issues`, zod's raw validation issues */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description The indexed data source cannot be reached, timed out or answered errors; `details` names the chain and reason */
            502: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Gateway",
                     *       "message": "the indexed source did not answer in time",
                     *       "details": {
                     *         "chainId": 42161,
                     *         "reason": "timeout"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
    listLimits: {
        parameters: {
            query: {
                trader: string;
                chainId?: 42161 | 421614;
                first?: number;
                skip?: number;
                since?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Resting orders, oldest first */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "trader": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                     *       "chainId": 42161,
                     *       "first": 100,
                     *       "skip": 0,
                     *       "count": 1,
                     *       "limits": [
                     *         {
                     *           "id": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8-0-3",
                     *           "trader": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                     *           "isActive": true,
                     *           "isBuy": true,
                     *           "isDayTrade": false,
                     *           "limitType": "LIMIT",
                     *           "openPrice": 90000,
                     *           "stopLossPrice": 85000,
                     *           "takeProfitPrice": 110000,
                     *           "collateral": 500,
                     *           "notionalInUsd": 5000,
                     *           "notionalInUnits": 0.0555,
                     *           "leverage": 10,
                     *           "orderId": "3",
                     *           "initiatedAt": "1794996400",
                     *           "updatedAt": "1794996400",
                     *           "pair": {
                     *             "id": "0",
                     *             "from": "BTC",
                     *             "to": "USD"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        trader: string;
                        chainId: number;
                        first: number;
                        skip: number;
                        count: number;
                        limits: components["schemas"]["RestingOrder"][];
                    };
                };
            };
            /** @description Validation failed: the body carries `issues`, zod's raw validation issues */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description The indexed data source cannot be reached, timed out or answered errors; `details` names the chain and reason */
            502: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Gateway",
                     *       "message": "the indexed source did not answer in time",
                     *       "details": {
                     *         "chainId": 42161,
                     *         "reason": "timeout"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
    listTrades: {
        parameters: {
            query: {
                trader: string;
                chainId?: 42161 | 421614;
                first?: number;
                skip?: number;
                since?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Open positions, oldest first */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "trader": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                     *       "chainId": 42161,
                     *       "first": 100,
                     *       "skip": 0,
                     *       "count": 1,
                     *       "trades": [
                     *         {
                     *           "id": "17",
                     *           "trader": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                     *           "pair": {
                     *             "id": "0",
                     *             "from": "BTC",
                     *             "to": "USD"
                     *           },
                     *           "index": 0,
                     *           "isBuy": true,
                     *           "collateral": 1000,
                     *           "leverage": 20,
                     *           "openPrice": 94000,
                     *           "stopLossPrice": 0,
                     *           "takeProfitPrice": 0,
                     *           "notionalInUsd": 20000,
                     *           "notionalInUnits": 0.2128,
                     *           "funding": 1.25,
                     *           "rollover": 0.4,
                     *           "openedAt": "1794913600"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        trader: string;
                        chainId: number;
                        first: number;
                        skip: number;
                        count: number;
                        trades: components["schemas"]["OpenTrade"][];
                    };
                };
            };
            /** @description Validation failed: the body carries `issues`, zod's raw validation issues */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description The indexed data source cannot be reached, timed out or answered errors; `details` names the chain and reason */
            502: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Gateway",
                     *       "message": "the indexed source did not answer in time",
                     *       "details": {
                     *         "chainId": 42161,
                     *         "reason": "timeout"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
    listOrders: {
        parameters: {
            query: {
                trader: string;
                chainId?: 42161 | 421614;
                first?: number;
                skip?: number;
                since?: number;
                before?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Executed orders, newest first */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "trader": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                     *       "chainId": 42161,
                     *       "first": 100,
                     *       "skip": 0,
                     *       "count": 1,
                     *       "orders": [
                     *         {
                     *           "id": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8-41",
                     *           "trader": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                     *           "pair": {
                     *             "id": "0",
                     *             "from": "BTC",
                     *             "to": "USD"
                     *           },
                     *           "tradeId": "17",
                     *           "isBuy": true,
                     *           "orderType": "MARKET",
                     *           "orderAction": "Open",
                     *           "price": 94000,
                     *           "priceAfterImpact": 94009.4,
                     *           "priceImpactPercent": 0.01,
                     *           "collateral": 1000,
                     *           "leverage": 20,
                     *           "notionalInUsd": 20000,
                     *           "notionalInUnits": 0.2128,
                     *           "profitPercent": 0,
                     *           "totalProfitPercent": 0,
                     *           "amountSentToTrader": 0,
                     *           "rolloverFee": 0,
                     *           "fundingFee": 0,
                     *           "initiatedAt": "1794913600",
                     *           "executedAt": "1794913602",
                     *           "executedTx": "0x4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e",
                     *           "isCancelled": false,
                     *           "cancelReason": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        trader: string;
                        chainId: number;
                        first: number;
                        skip: number;
                        count: number;
                        orders: components["schemas"]["ExecutedOrder"][];
                    };
                };
            };
            /** @description Validation failed: the body carries `issues`, zod's raw validation issues */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description The indexed data source cannot be reached, timed out or answered errors; `details` names the chain and reason */
            502: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Gateway",
                     *       "message": "the indexed source did not answer in time",
                     *       "details": {
                     *         "chainId": 42161,
                     *         "reason": "timeout"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
    querySubgraph: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "{ pairs(first: 3, orderBy: id) { id from to } }"
                 *     }
                 */
                "application/json": {
                    /** @description The GraphQL document, forwarded as sent */
                    query: string;
                    /** @description Values of its variables */
                    variables?: {
                        [key: string]: unknown;
                    } | null;
                    /** @description The operation to run when the document holds several */
                    operationName?: string | null;
                };
            };
        };
        responses: {
            /** @description graph-node's answer: `data`, and `errors` when a query fails or exceeds a limit */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "pairs": [
                     *           {
                     *             "id": "0",
                     *             "from": "BTC",
                     *             "to": "USD"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        data?: {
                            [key: string]: unknown;
                        } | null;
                        errors?: ({
                            message: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A body graph-node cannot read, answered as graph-node answers it */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The \"query\" field is missing in request data"
                     *     }
                     */
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description No subgraph for that chain */
            404: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "no subgraph for chain 1: use 42161 or 421614"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Request body larger than the door's cap */
            413: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "request body is larger than 49152 bytes"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "rate limit exceeded: retry in 7 seconds"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
            /** @description The subgraph answered a 5xx or could not be reached */
            502: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "the subgraph of chain 42161 answered HTTP 500"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
            /** @description The subgraph did not answer in time */
            504: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "the subgraph of chain 42161 did not answer within 5000 ms"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    querySubgraphOfChain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 42161 (Arbitrum One) or 421614 (Arbitrum Sepolia); another chain is a 404 */
                chainId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "{ pairs(first: 3, orderBy: id) { id from to } }"
                 *     }
                 */
                "application/json": {
                    /** @description The GraphQL document, forwarded as sent */
                    query: string;
                    /** @description Values of its variables */
                    variables?: {
                        [key: string]: unknown;
                    } | null;
                    /** @description The operation to run when the document holds several */
                    operationName?: string | null;
                };
            };
        };
        responses: {
            /** @description graph-node's answer: `data`, and `errors` when a query fails or exceeds a limit */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "pairs": [
                     *           {
                     *             "id": "0",
                     *             "from": "BTC",
                     *             "to": "USD"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        data?: {
                            [key: string]: unknown;
                        } | null;
                        errors?: ({
                            message: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A body graph-node cannot read, answered as graph-node answers it */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The \"query\" field is missing in request data"
                     *     }
                     */
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description No subgraph for that chain */
            404: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "no subgraph for chain 1: use 42161 or 421614"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Request body larger than the door's cap */
            413: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "request body is larger than 49152 bytes"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "rate limit exceeded: retry in 7 seconds"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
            /** @description The subgraph answered a 5xx or could not be reached */
            502: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "the subgraph of chain 42161 answered HTTP 500"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
            /** @description The subgraph did not answer in time */
            504: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "the subgraph of chain 42161 did not answer within 5000 ms"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    querySubgraphAtMetadataBackendPath: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "{ pairs(first: 3, orderBy: id) { id from to } }"
                 *     }
                 */
                "application/json": {
                    /** @description The GraphQL document, forwarded as sent */
                    query: string;
                    /** @description Values of its variables */
                    variables?: {
                        [key: string]: unknown;
                    } | null;
                    /** @description The operation to run when the document holds several */
                    operationName?: string | null;
                };
            };
        };
        responses: {
            /** @description graph-node's answer: `data`, and `errors` when a query fails or exceeds a limit */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "pairs": [
                     *           {
                     *             "id": "0",
                     *             "from": "BTC",
                     *             "to": "USD"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        data?: {
                            [key: string]: unknown;
                        } | null;
                        errors?: ({
                            message: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A body graph-node cannot read, answered as graph-node answers it */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "The \"query\" field is missing in request data"
                     *     }
                     */
                    "application/json": {
                        error: string;
                    };
                };
            };
            /** @description No subgraph for that chain */
            404: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "no subgraph for chain 1: use 42161 or 421614"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Request body larger than the door's cap */
            413: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "request body is larger than 49152 bytes"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "rate limit exceeded: retry in 7 seconds"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
            /** @description The subgraph answered a 5xx or could not be reached */
            502: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "the subgraph of chain 42161 answered HTTP 500"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
            /** @description The subgraph did not answer in time */
            504: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "errors": [
                     *         {
                     *           "message": "the subgraph of chain 42161 did not answer within 5000 ms"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        errors: {
                            message: string;
                        }[];
                    };
                };
            };
        };
    };
    onboard: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "chainId": 42161,
                 *       "partner": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                 *       "delegation": {
                 *         "delegate": "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
                 *         "nonce": "0",
                 *         "expiry": "1795001800",
                 *         "signature": "0xababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababababab"
                 *       },
                 *       "permit": {
                 *         "value": "115792089237316195423570985008687907853269984665640564039457584007913129639935",
                 *         "nonce": "0",
                 *         "deadline": "1795001800",
                 *         "signature": "0xcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
                 *       }
                 *     }
                 */
                "application/json": {
                    chainId: 42161 | 421614;
                    partner: string;
                    delegation?: {
                        delegate: string;
                        nonce: string;
                        expiry: string;
                        signature: string;
                    };
                    permit?: {
                        value: string;
                        nonce: string;
                        deadline: string;
                        signature: string;
                    };
                };
            };
        };
        responses: {
            /** @description The terminal on-chain outcome: `confirmed` or `reverted` (with `reason`) */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "confirmed",
                     *       "userOpHash": "0x7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a",
                     *       "transactionHash": "0x4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e",
                     *       "state": {
                     *         "onboarded": true,
                     *         "missing": [],
                     *         "delegate": "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
                     *         "allowance": "115792089237316195423570985008687907853269984665640564039457584007913129639935"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "confirmed" | "reverted";
                        userOpHash: string;
                        transactionHash: string;
                        reason?: string;
                        state?: components["schemas"]["OnboardingState"];
                    };
                };
            };
            /** @description The deadline passed before the outcome; poll the Location */
            202: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    location: string;
                    /** @description Seconds before polling */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "pending",
                     *       "id": "0x3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c",
                     *       "userOpHash": "0x7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a"
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        status: "pending";
                        id: string;
                        userOpHash?: string;
                    };
                };
            };
            /** @description Validation failed (`issues`), or the onboarding can never succeed as signed (expired, nonce used): simulation found that the batch reverts, nothing was sent, and `details` holds the decoded reason */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "the onboarding cannot succeed as signed, so it was not sent: ERC2612InvalidSigner",
                     *       "issues": [
                     *         {
                     *           "code": "custom",
                     *           "path": [
                     *             "permit"
                     *           ],
                     *           "message": "ERC2612InvalidSigner"
                     *         }
                     *       ],
                     *       "details": {
                     *         "reason": "ERC2612InvalidSigner",
                     *         "part": "permit",
                     *         "error": "ERC2612InvalidSigner",
                     *         "args": [
                     *           "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                     *           "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: unknown[];
                        details?: {
                            reason: string;
                            /** @enum {string} */
                            part?: "delegation" | "permit";
                            error?: string;
                            args?: string[];
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A signature does not match the partner address */
            401: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Unauthorized",
                     *       "message": "the delegation signature was not made by the partner"
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description The partner is not allowlisted */
            403: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Forbidden",
                     *       "message": "the partner is not allowlisted"
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description The body is larger than the parser limit */
            413: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Payload Too Large",
                     *       "message": "request body is larger than 65536 bytes",
                     *       "details": {
                     *         "limitBytes": 65536
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Internal Server Error",
                     *       "message": "unexpected error"
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
    getOnboarding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Terminal outcome */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "confirmed",
                     *       "userOpHash": "0x7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a",
                     *       "transactionHash": "0x4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e",
                     *       "state": {
                     *         "onboarded": true,
                     *         "missing": [],
                     *         "delegate": "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
                     *         "allowance": "115792089237316195423570985008687907853269984665640564039457584007913129639935"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "confirmed" | "reverted";
                        userOpHash: string;
                        transactionHash: string;
                        reason?: string;
                        state?: components["schemas"]["OnboardingState"];
                    };
                };
            };
            /** @description Still pending */
            202: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "pending",
                     *       "id": "0x3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c",
                     *       "userOpHash": "0x7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a"
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        status: "pending";
                        id: string;
                        userOpHash?: string;
                    };
                };
            };
            /** @description An id that is not one, or an onboarding refused by simulation (`details` holds the decoded reason) */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "the onboarding cannot succeed as signed, so it was not sent: ERC2612InvalidSigner",
                     *       "issues": [
                     *         {
                     *           "code": "custom",
                     *           "path": [
                     *             "permit"
                     *           ],
                     *           "message": "ERC2612InvalidSigner"
                     *         }
                     *       ],
                     *       "details": {
                     *         "reason": "ERC2612InvalidSigner",
                     *         "part": "permit",
                     *         "error": "ERC2612InvalidSigner",
                     *         "args": [
                     *           "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                     *           "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: string;
                        message: string;
                        issues?: unknown[];
                        details?: {
                            reason: string;
                            /** @enum {string} */
                            part?: "delegation" | "permit";
                            error?: string;
                            args?: string[];
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Not Found",
                     *       "message": "unknown pair \"DOGE-USD\"; symbols look like BTC-USD (see GET /v1/pairs)",
                     *       "details": {
                     *         "pair": "DOGE-USD"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Rate limit exceeded; the message states the seconds to wait */
            429: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    /** @description Seconds to wait before retrying */
                    "retry-after": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Too Many Requests",
                     *       "message": "rate limit exceeded: retry in 7 seconds",
                     *       "details": {
                     *         "budget": "prices",
                     *         "retryAfterSeconds": 7
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    /** @description Requests allowed per window */
                    "x-ratelimit-limit": string;
                    /** @description Requests left in the current window */
                    "x-ratelimit-remaining": string;
                    /** @description Seconds until the window resets */
                    "x-ratelimit-reset": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Internal Server Error",
                     *       "message": "unexpected error"
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1 document */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openapi": "3.1.0",
                     *       "info": {
                     *         "title": "Venue gateway",
                     *         "version": "1.0.0"
                     *       },
                     *       "paths": {}
                     *     }
                     */
                    "application/json": {
                        info: {
                            title: string;
                            version: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The document takes no query parameters */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
    getAsyncApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description AsyncAPI 3.0 document */
            200: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "asyncapi": "3.0.0",
                     *       "info": {
                     *         "title": "Venue gateway events",
                     *         "version": "1.0.0"
                     *       }
                     *     }
                     */
                    "application/json": {
                        info: {
                            title: string;
                            version: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The document takes no query parameters */
            400: {
                headers: {
                    /** @description Generated by the service for every response; a value sent by the client is ignored */
                    "x-request-id": string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "Bad Request",
                     *       "message": "invalid query parameters",
                     *       "issues": [
                     *         {
                     *           "code": "unrecognized_keys",
                     *           "keys": [
                     *             "foo"
                     *           ],
                     *           "path": [],
                     *           "message": "Unrecognized key: \"foo\""
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["FrameworkError"];
                };
            };
        };
    };
}
