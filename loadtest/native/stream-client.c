// The load test's native stream client: one process holds many WebSocket connections to the price stream
// on one epoll loop, so that a figure measures the edge and not the client. Built by build.sh with the
// system C compiler; driven by loadtest/native-stream-client.ts over stdin/stdout:
//   stdout "CONNECTED <open> failed=<n> refused=<n>" once every connection has had its first answer;
//   stdin "reset" (answer "RESET"): latency, counts and the snapshot clock start afresh;
//   stdin "report" (answer "REPORT {json}"); stdin "quit" or end of input: exit.
// Per connection it checks the frames of spec 6.1: the snapshot's per-pair seq baselines, then every tick's
// seq is the pair's previous one plus one (a jump is a seq gap); `gap` frames are counted as the server
// announces them. Latency is read from a tick's row when its last field is "t":<16 digits: 10^15 plus the µs
// of CLOCK_MONOTONIC>, which the load test's publisher appends (the edge forwards row bytes unchanged); the
// offset keeps the number free of leading zeros, so the row stays JSON the service can parse.
// Refused upgrades (any status but 101) are counted, and with --reconnect a closed or refused connection
// opens again: at once, or after the client package's backoff (client/src/reconnect-delay.ts). A connection
// that closed or could not connect tries the next port, as a load balancer would send it to another edge;
// one refused by a server that answered (a 503 of its admission rate) retries the same port.
// With --resume=1 a connection asks for cursors (?cursor=true), keeps the last one it received, and opens again
// with ?from=<cursor>: a `resumed` frame with recovered:true keeps its seq baselines (a jump across the move is a
// tick lost by it), one with recovered:false is followed by a snapshot. A connection is current once it holds its
// snapshot or its recovered resume (whose replay follows in the same send).
// With --format=compact a connection asks for compact frames (?format=compact): ticks {"type":"t","seq":N,"p":<pair
// id>,"d":[...]} name the pair by its id (the --symbols order), `static` frames are counted as bytes only, and
// latency is read from the stamp in d's fifth value. Rows whose stamp is in "secondsToToggleIsDayTradingClosed"
// (10^15 or more) instead of a trailing "t" give full ticks their latency from there.
// With --replay=latest a resume asks for each pair's latest tick only (&replay=latest): its gap counts the
// ticks folded, and the seq jumps after it are those ticks.
// --query=K=V&.. adds parameters to every connection's query, after its pairs (rate=fixed_rate@200ms,
// heartbeat=5); with either format. At a fixed rate the seq jumps it counts are the ticks folded into a row, not
// losses; heartbeat frames are counted as bytes only. With --window-ms=W (the fixed rate's window) latency is
// from the end of the window the row's stamp fell in, the edge's windows ending on multiples of W in wall-clock time.
// With batch=true in --query a fixed rate's window, or at real time the ticks the edge sends together (up to
// 16 KiB), comes as one `batch` frame: each frame inside is read as if it came alone.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

enum state { WAITING, CONNECTING, HANDSHAKE, OPEN };
enum reconnect { RECONNECT_NEVER, RECONNECT_AT_ONCE, RECONNECT_BACKOFF };

#define MAX_PAIRS 256
#define MAX_PORTS 8
#define MAX_SOURCES 64
#define LATENCY_BUCKETS 11000 /* 10 µs buckets up to 10 ms, then 1 ms buckets up to 10 s */

typedef struct {
  int fd;
  enum state state;
  int port_index;
  int has_snapshot; /* current: holds its snapshot or a recovered resume */
  int attempts;      /* failed attempts in a row, for the backoff */
  int answered;      /* has had a first answer (101, refusal or failure) */
  int pair_count;    /* pairs its query asks for */
  uint64_t retry_at; /* µs, when WAITING */
  uint32_t *last_seq; /* per pair; UINT32_MAX: not received by this connection */
  char query[1024];
  char cursor[48]; /* the last cursor received, with --resume */
  size_t rest_len, rest_cap;
  unsigned char *rest;
} conn_t;

static struct {
  int count, inflight, quickack;
  int ports[MAX_PORTS], port_count, first_port_share;
  struct in_addr sources[MAX_SOURCES];
  int source_count;
  const char *pairs, *origin, *query;
  int all_pairs_share;
  enum reconnect reconnect;
  int resume;
  int compact;
  int replay_latest;
  uint64_t window_us; /* --window-ms: latency from the end of the window a row was stamped in (the edge's fixed rate) */
  unsigned seed;
} opt = {.count = 100, .inflight = 200, .port_count = 0, .first_port_share = 100, .pairs = "all", .origin = "http://localhost", .query = "", .seed = 1};

static char *symbols[MAX_PAIRS];
static size_t symbol_len[MAX_PAIRS];
static int symbol_count;
static conn_t *conns;
static int epfd;

/* counts: cumulative since start, or since the last reset (window) */
static uint64_t msgs, seq_gaps, announced_gaps, bytes_in, snapshots, max_latency_us, latency_hist[LATENCY_BUCKETS];
static uint64_t opened, failed, refused, refused_503, closes, reconnects;
static uint64_t frame_bytes, resumes_recovered, resumes_refused; /* window: every frame's payload; resumed frames */
static uint64_t pairs_held; /* sum of pair_count over open connections: ticks expected per round of every pair */
static int open_now, with_snapshot, answered, in_flight, to_open; /* to_open: WAITING with a retry time */
static uint64_t window_start, last_snapshot_at;

static uint64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void record_latency(int64_t us) {
  if (us < 0) us = 0;
  if ((uint64_t)us > max_latency_us) max_latency_us = (uint64_t)us;
  uint64_t bucket = us < 10000 ? (uint64_t)us / 10 : 1000 + ((uint64_t)us - 10000) / 1000;
  latency_hist[bucket < LATENCY_BUCKETS ? bucket : LATENCY_BUCKETS - 1]++;
}

/* The upper edge of the bucket holding the p-th share of the window's ticks, in ms; -1 without ticks. */
static double percentile_ms(double p) {
  if (msgs == 0) return -1;
  uint64_t target = (uint64_t)((double)msgs * p + 0.999999), seen = 0;
  for (int b = 0; b < LATENCY_BUCKETS; b++) {
    seen += latency_hist[b];
    if (seen >= target) return b < 1000 ? (b + 1) * 10 / 1000.0 : (10000 + (b - 999) * 1000.0) / 1000.0;
  }
  return max_latency_us / 1000.0;
}

/* The symbols by hash (FNV-1a, open addressing): a full row names its pair by symbol, and a search through the list
   for every row would cost the client more per row than the format does. */
#define SYMBOL_SLOTS 1024 /* a power of two, four times MAX_PAIRS */
static int symbol_slot[SYMBOL_SLOTS]; /* a symbol's index + 1; 0: empty */

static uint32_t symbol_hash(const unsigned char *name, size_t len) {
  uint32_t hash = 2166136261u;
  for (size_t i = 0; i < len; i++) hash = (hash ^ name[i]) * 16777619u;
  return hash & (SYMBOL_SLOTS - 1);
}

static void index_symbol(int i) {
  uint32_t slot = symbol_hash((const unsigned char *)symbols[i], symbol_len[i]);
  while (symbol_slot[slot]) slot = (slot + 1) & (SYMBOL_SLOTS - 1);
  symbol_slot[slot] = i + 1;
}

static int symbol_index(const unsigned char *name, size_t len) {
  for (uint32_t slot = symbol_hash(name, len); symbol_slot[slot]; slot = (slot + 1) & (SYMBOL_SLOTS - 1)) {
    int i = symbol_slot[slot] - 1;
    if (symbol_len[i] == len && memcmp(symbols[i], name, len) == 0) return i;
  }
  return -1;
}

/* The pairs of connection i's query: every pair, the list given, or k random pairs (a share take every pair). */
static void choose_pairs(conn_t *c) {
  c->query[0] = 0;
  c->pair_count = symbol_count;
  if (strncmp(opt.pairs, "rand:", 5) != 0) {
    if (strcmp(opt.pairs, "all") != 0) {
      snprintf(c->query, sizeof c->query, "?pairs=%s", opt.pairs);
      c->pair_count = 1;
      for (const char *comma = opt.pairs; (comma = strchr(comma, ',')); comma++) c->pair_count++;
    }
    return;
  }
  if (rand() % 100 < opt.all_pairs_share) return;
  int k = atoi(opt.pairs + 5), taken[MAX_PAIRS] = {0};
  c->pair_count = k < symbol_count ? k : symbol_count;
  size_t used = (size_t)snprintf(c->query, sizeof c->query, "?pairs=");
  for (int j = 0; j < k && j < symbol_count; j++) {
    int x;
    do x = rand() % symbol_count;
    while (taken[x]);
    taken[x] = 1;
    used += (size_t)snprintf(c->query + used, sizeof c->query - used, j ? ",%s" : "%s", symbols[x]);
  }
}

/* The query of connection i: its pairs, then the parameters every connection adds (--query, e.g. rate=...). */
static void choose_query(conn_t *c) {
  choose_pairs(c);
  if (!opt.query[0]) return;
  size_t used = strlen(c->query);
  snprintf(c->query + used, sizeof c->query - used, "%s%s", used ? "&" : "?", opt.query);
}

static void start_connect(int i) {
  conn_t *c = &conns[i];
  to_open--;
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (fd < 0) {
    failed++;
    c->state = WAITING;
    c->retry_at = now_us() + 1000000;
    to_open++;
    return;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (opt.source_count > 0) {
    /* the port is chosen at connect, per destination, so each source address offers a whole port range */
    setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    struct sockaddr_in local = {.sin_family = AF_INET, .sin_addr = opt.sources[i % opt.source_count]};
    bind(fd, (struct sockaddr *)&local, sizeof local);
  }
  struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)opt.ports[c->port_index])};
  inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
  connect(fd, (struct sockaddr *)&to, sizeof to);
  c->fd = fd;
  c->state = CONNECTING;
  in_flight++;
  c->has_snapshot = 0;
  c->rest_len = 0;
  struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT, .data.u32 = (uint32_t)i};
  epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

/* The client package's defaults and rule: full jitter, a uniform wait in [0, min(30 s, 500 ms * 2^attempts)],
   and never sooner than Retry-After plus up to a second drawn at random. */
static uint64_t backoff_us(conn_t *c, int retry_after_s) {
  if (opt.reconnect == RECONNECT_AT_ONCE) return 0;
  uint64_t ceiling = 500000u << (c->attempts < 6 ? c->attempts : 6);
  if (ceiling > 30000000u) ceiling = 30000000u;
  uint64_t wait = (uint64_t)rand() % (ceiling + 1);
  if (retry_after_s <= 0) return wait;
  uint64_t floor = (uint64_t)retry_after_s * 1000000u + (uint64_t)rand() % 1000001u;
  return wait > floor ? wait : floor;
}

/* drop()'s second argument for a connection no server refused: it closed, or could not connect */
#define NOT_REFUSED (-1)

static void first_answer(conn_t *c) {
  if (!c->answered) c->answered = 1, answered++;
}

/* The connection is gone: counted, and opened again later when reconnecting. `retry_after_s` is the
   refusal's Retry-After (0 when it gave none), or NOT_REFUSED. */
static void drop(int i, int retry_after_s) {
  conn_t *c = &conns[i];
  if (c->state == OPEN) {
    open_now--;
    pairs_held -= (uint64_t)c->pair_count;
    if (c->has_snapshot) with_snapshot--;
  } else {
    in_flight--;
    first_answer(c);
  }
  epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
  c->fd = -1;
  c->state = WAITING;
  c->retry_at = UINT64_MAX;
  if (opt.reconnect == RECONNECT_NEVER) return;
  if (retry_after_s == NOT_REFUSED) c->port_index = (c->port_index + 1) % opt.port_count;
  c->retry_at = now_us() + backoff_us(c, retry_after_s);
  c->attempts++;
  to_open++;
  reconnects++;
}

static void send_upgrade(int i) {
  conn_t *c = &conns[i];
  char request[1536], resume[128] = "";
  size_t used = 0;
  if (opt.compact) used += (size_t)snprintf(resume, sizeof resume, "%sformat=compact", c->query[0] ? "&" : "?");
  if (opt.resume)
    used += (size_t)snprintf(resume + used, sizeof resume - used, "%s%s%s", c->query[0] || used ? "&" : "?",
                             c->cursor[0] ? "from=" : "cursor=true", c->cursor);
  if (opt.resume && opt.replay_latest && c->cursor[0]) snprintf(resume + used, sizeof resume - used, "&replay=latest");
  int length = snprintf(request, sizeof request,
                        "GET /v1/prices/stream%s%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: %s\r\n\r\n",
                        c->query, resume, opt.ports[c->port_index], opt.origin);
  if (write(c->fd, request, (size_t)length) != length) {
    failed++;
    drop(i, NOT_REFUSED);
    return;
  }
  c->state = HANDSHAKE;
  struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
  epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Reads "seq":{"A/B":12,...} of a snapshot into the connection's baselines. */
static void read_snapshot(conn_t *c, const unsigned char *p, const unsigned char *end) {
  for (int k = 0; k < symbol_count; k++) c->last_seq[k] = UINT32_MAX;
  const unsigned char *s = memmem(p, (size_t)(end - p), "\"seq\":{", 7);
  if (!s) return;
  s += 7;
  while (s < end && *s == '"') {
    const unsigned char *name = s + 1, *close_quote = memchr(name, '"', (size_t)(end - name));
    if (!close_quote || close_quote + 2 > end) return;
    int pair = symbol_index(name, (size_t)(close_quote - name));
    uint32_t seq = (uint32_t)strtoul((const char *)close_quote + 2, (char **)&s, 10);
    if (pair >= 0) c->last_seq[pair] = seq;
    if (s < end && *s == ',') s++;
  }
}

/* added to a stamp so that its 16 digits never start with 0 (JSON numbers have no leading zeros) */
#define STAMP_OFFSET_US 1000000000000000ULL

/* CLOCK_REALTIME minus CLOCK_MONOTONIC in µs, taken at start: where a stamp falls in wall-clock time */
static int64_t realtime_offset_us;

/* The latency of a row stamped `stamp` (CLOCK_MONOTONIC µs, offset removed), read at `now`: from the stamp, or with
   --window-ms from the end of the window the stamp fell in. The edge's windows end on multiples of their length
   in wall-clock time; a row that reached the edge after the boundary went out a window later, so this errs long,
   never short. */
static void record_stamp(uint64_t stamp, uint64_t now) {
  if (opt.window_us) {
    uint64_t wall = (uint64_t)((int64_t)stamp + realtime_offset_us);
    stamp = (uint64_t)((int64_t)((wall + opt.window_us - 1) / opt.window_us * opt.window_us) - realtime_offset_us);
  }
  record_latency((int64_t)now - (int64_t)stamp);
}

/* A frame's trailing ,"cursor":"<cursor>"} (connections that asked for cursors): kept as the connection's
   resume point; returns where the frame would end without it. */
static const unsigned char *take_cursor(conn_t *c, const unsigned char *p, const unsigned char *end) {
  if (!opt.resume || end - p < 16 || end[-2] != '"') return end;
  const unsigned char *quote = end - 3;
  while (quote > p && *quote != '"') quote--;
  size_t len = (size_t)(end - 2 - quote - 1);
  if (quote - p < 10 || memcmp(quote - 10, ",\"cursor\":", 10) != 0 || len >= sizeof c->cursor) return end;
  memcpy(c->cursor, quote + 1, len);
  c->cursor[len] = 0;
  return quote - 10 + 1; /* the comma stands where the closing brace would be */
}

/* A tick's seq on its pair: a jump is a seq gap. */
static void count_seq(conn_t *c, int pair, uint32_t seq) {
  if (pair < 0 || pair >= symbol_count) return;
  uint32_t last = c->last_seq[pair];
  if (last != UINT32_MAX && seq > last + 1) seq_gaps += seq - last - 1;
  c->last_seq[pair] = seq;
}

/* A stamp written as a number at `at` (10^15 or more), if it is one. */
static void latency_from_number(const unsigned char *at, uint64_t now) {
  uint64_t stamp = strtoull((const char *)at, NULL, 10);
  if (stamp >= STAMP_OFFSET_US) record_stamp(stamp - STAMP_OFFSET_US, now);
}

#define TOGGLE_FIELD "\"secondsToToggleIsDayTradingClosed\":"
#define TOGGLE_LEN (sizeof TOGGLE_FIELD - 1)

/* Where each pair's in-row stamp was last found, counted from its "pair" field (0: not yet). A pair's rows keep one
   layout but for the widths of their values, so the stamp is looked for there first and searched for only when it
   moved: a search through every row would cost the client more per full row than the format does. */
static ptrdiff_t toggle_offset[MAX_PAIRS];

/* The in-row stamp of the frame from `p` to `end`, whose "pair" field is at `pair_field`, of the pair `pair` (-1 if
   not listed or the frame has no pair field: then only searched for). */
static const unsigned char *find_toggle(int pair, const unsigned char *p, const unsigned char *pair_field, const unsigned char *end) {
  if (pair >= 0 && toggle_offset[pair] != 0) {
    ptrdiff_t at = (pair_field - p) + toggle_offset[pair];
    if (at >= 0 && at + (ptrdiff_t)TOGGLE_LEN <= end - p && memcmp(p + at, TOGGLE_FIELD, TOGGLE_LEN) == 0) return p + at;
  }
  const unsigned char *toggle = memmem(p, (size_t)(end - p), TOGGLE_FIELD, TOGGLE_LEN);
  if (toggle && pair >= 0) toggle_offset[pair] = toggle - pair_field;
  return toggle;
}

/* A tick: {"type":"tick","seq":N,"data":{...,"pair":"A/B",...[,"t":<16 digits>]}[,"cursor":"..."]} */
static void read_tick(conn_t *c, const unsigned char *p, const unsigned char *end, uint64_t now) {
  msgs++;
  bytes_in += (uint64_t)(end - p);
  end = take_cursor(c, p, end);
  uint32_t seq = (uint32_t)strtoul((const char *)p + 21, NULL, 10);
  const unsigned char *pair_field = memmem(p, (size_t)(end - p), "\"pair\":\"", 8);
  int pair = -1;
  if (pair_field) {
    const unsigned char *name = pair_field + 8, *close_quote = memchr(name, '"', (size_t)(end - name));
    pair = close_quote ? symbol_index(name, (size_t)(close_quote - name)) : -1;
    count_seq(c, pair, seq);
  }
  if (end - p > 24 && memcmp(end - 22, "\"t\":", 4) == 0) {
    uint64_t stamp = 0;
    for (const unsigned char *d = end - 18; d < end - 2; d++) stamp = stamp * 10 + (uint64_t)(*d - '0');
    record_stamp(stamp - STAMP_OFFSET_US, now);
  } else {
    const unsigned char *toggle = find_toggle(pair, p, pair_field, end);
    if (toggle) latency_from_number(toggle + TOGGLE_LEN, now);
  }
}

/* A compact tick: {"type":"t","seq":N,"p":<pair id>,"d":[bid,mid,ask,flags,<stamp>,timestamp]}[,"cursor":"..."] */
static void read_compact_tick(conn_t *c, const unsigned char *p, const unsigned char *end, uint64_t now) {
  msgs++;
  bytes_in += (uint64_t)(end - p);
  end = take_cursor(c, p, end);
  char *after;
  uint32_t seq = (uint32_t)strtoul((const char *)p + 18, &after, 10);
  if (end - (const unsigned char *)after < 6 || memcmp(after, ",\"p\":", 5) != 0) return;
  count_seq(c, (int)strtol(after + 5, &after, 10), seq);
  const unsigned char *values = memmem(after, (size_t)(end - (const unsigned char *)after), "\"d\":[", 5);
  for (int commas = 0; values && commas < 4; commas++) values = memchr(values + 1, ',', (size_t)(end - values - 1));
  if (values) latency_from_number(values + 1, now);
}

/* A gap: {"type":"gap","dropped":N[,"cursor":"..."]} */
static void read_gap(conn_t *c, const unsigned char *p, const unsigned char *end) {
  take_cursor(c, p, end);
  announced_gaps += strtoul((const char *)p + 24, NULL, 10);
}

/*
 * A fixed rate's window, or real-time ticks sent together, in one frame (&batch=true):
 * {"type":"batch","frames":[<frame>,...]}, each frame inside a tick, compact tick, static part or gap as it would
 * come alone. A row holds no "type" key, so `,{"type":"` only ever starts the next frame.
 */
static void read_batch(conn_t *c, const unsigned char *p, const unsigned char *end, uint64_t now) {
  static const char next[] = ",{\"type\":\"";
  const unsigned char *frame = p + 26, *last = end - 2; /* after `"frames":[`, before `]}` */
  while (frame < last) {
    const unsigned char *after = memmem(frame + 1, (size_t)(last - frame - 1), next, sizeof next - 1);
    const unsigned char *frame_end = after ? after : last;
    if (frame_end - frame > 20 && frame[9] == 't' && frame[10] == '"') read_compact_tick(c, frame, frame_end, now);
    else if (frame_end - frame > 20 && frame[9] == 't') read_tick(c, frame, frame_end, now);
    else if (frame_end - frame > 10 && frame[9] == 'g') read_gap(c, frame, frame_end);
    frame = frame_end + 1;
  }
}

static int retry_after_of(const unsigned char *head, size_t len) {
  const unsigned char *h = memmem(head, len, "\r\nretry-after: ", 15);
  if (!h) h = memmem(head, len, "\r\nRetry-After: ", 15);
  return h ? atoi((const char *)h + 15) : 0;
}

static unsigned char buffer[1 << 20];

static void on_readable(int i) {
  conn_t *c = &conns[i];
  size_t have = c->rest_len;
  if (have) memcpy(buffer, c->rest, have);
  c->rest_len = 0;
  ssize_t r = read(c->fd, buffer + have, sizeof buffer - have);
  if (r < 0 && errno == EAGAIN) {
    if (have) memcpy(c->rest, buffer, have), c->rest_len = have;
    return;
  }
  if (r <= 0) {
    if (c->state == OPEN) closes++;
    else failed++;
    drop(i, NOT_REFUSED);
    return;
  }
  if (opt.quickack) {
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
  }
  size_t len = have + (size_t)r, off = 0;
  if (c->state == HANDSHAKE) {
    unsigned char *head_end = memmem(buffer, len, "\r\n\r\n", 4);
    if (!head_end) goto keep;
    if (memcmp(buffer, "HTTP/1.1 101", 12) != 0) {
      refused++;
      if (memcmp(buffer, "HTTP/1.1 503", 12) == 0) refused_503++;
      drop(i, retry_after_of(buffer, (size_t)(head_end - buffer)));
      return;
    }
    c->state = OPEN;
    in_flight--;
    first_answer(c);
    c->attempts = 0;
    opened++;
    open_now++;
    pairs_held += (uint64_t)c->pair_count;
    off = (size_t)(head_end - buffer) + 4;
  }
  uint64_t now = now_us();
  while (off + 2 <= len) {
    unsigned char first = buffer[off];
    size_t payload = buffer[off + 1] & 127, header = 2;
    if (payload == 126) {
      if (off + 4 > len) break;
      payload = ((size_t)buffer[off + 2] << 8) | buffer[off + 3];
      header = 4;
    } else if (payload == 127) {
      if (off + 10 > len) break;
      payload = 0;
      for (int b = 2; b < 10; b++) payload = (payload << 8) | buffer[off + b];
      header = 10;
    }
    if (off + header + payload > len) {
      if (header + payload > sizeof buffer) { /* a frame this client cannot hold: count it as a close */
        closes++;
        drop(i, NOT_REFUSED);
        return;
      }
      break;
    }
    const unsigned char *p = buffer + off + header, *end = p + payload;
    int opcode = first & 15;
    if (opcode == 1) frame_bytes += payload;
    if (opcode == 1 && payload > 20 && p[9] == 't' && p[10] == '"') read_compact_tick(c, p, end, now);
    else if (opcode == 1 && payload > 20 && p[9] == 't') read_tick(c, p, end, now);
    else if (opcode == 1 && payload > 20 && p[9] == 's' && p[10] == 't') {
      /* a compact connection's static part: its bytes are counted with every frame's */
    } else if (opcode == 1 && payload > 20 && p[9] == 's') {
      take_cursor(c, p, end);
      read_snapshot(c, p, end);
      snapshots++;
      last_snapshot_at = now;
      if (!c->has_snapshot) c->has_snapshot = 1, with_snapshot++;
    } else if (opcode == 1 && payload > 10 && p[9] == 'g') {
      read_gap(c, p, end);
    } else if (opcode == 1 && payload > 28 && p[9] == 'b') {
      read_batch(c, p, end, now);
    } else if (opcode == 1 && payload > 30 && p[9] == 'r') { /* {"type":"resumed","recovered":true|false... */
      if (p[30] == 't') {
        resumes_recovered++;
        last_snapshot_at = now;
        if (!c->has_snapshot) c->has_snapshot = 1, with_snapshot++;
      } else {
        resumes_refused++;
      }
    } else if (opcode == 9) { /* pong with the ping's payload, masked with a zero key */
      unsigned char pong[6 + 125] = {0x8a, (unsigned char)(0x80 | (payload & 127))};
      memcpy(pong + 6, p, payload & 127);
      if (write(c->fd, pong, 6 + (payload & 127)) < 0) { /* the close shows on the next read */
      }
    } else if (opcode == 8) {
      closes++;
      drop(i, NOT_REFUSED);
      return;
    }
    off += header + payload;
  }
keep:
  if (off < len) {
    size_t rest = len - off;
    if (rest > c->rest_cap) c->rest_cap = rest * 2, c->rest = realloc(c->rest, c->rest_cap);
    memcpy(c->rest, buffer + off, rest);
    c->rest_len = rest;
  }
}

static void report(void) {
  uint64_t now = now_us();
  double elapsed = (double)(now - window_start) / 1e6;
  double last_snapshot_ms = last_snapshot_at > window_start ? (double)(last_snapshot_at - window_start) / 1000.0 : -1;
  printf("REPORT {\"conns\":%d,\"pairsHeld\":%lu,\"withSnapshot\":%d,\"opened\":%lu,\"failed\":%lu,\"refused\":%lu,\"refused503\":%lu,"
         "\"closes\":%lu,\"reconnects\":%lu,\"msgs\":%lu,\"gaps\":%lu,\"seqGaps\":%lu,\"snapshots\":%lu,\"lastSnapshotMs\":%.1f,"
         "\"elapsed\":%.2f,\"rate\":%.0f,\"MBps\":%.1f,\"p50ms\":%.3f,\"p99ms\":%.3f,\"p999ms\":%.3f,\"maxms\":%.3f,"
         "\"frameBytes\":%lu,\"resumesRecovered\":%lu,\"resumesRefused\":%lu}\n",
         open_now, pairs_held, with_snapshot, opened, failed, refused, refused_503, closes, reconnects, msgs, announced_gaps, seq_gaps,
         snapshots, last_snapshot_ms, elapsed, (double)msgs / elapsed, (double)bytes_in / elapsed / 1e6, percentile_ms(0.5),
         percentile_ms(0.99), percentile_ms(0.999), (double)max_latency_us / 1000.0, frame_bytes, resumes_recovered, resumes_refused);
  fflush(stdout);
}

static void reset(void) {
  memset(latency_hist, 0, sizeof latency_hist);
  msgs = seq_gaps = announced_gaps = bytes_in = snapshots = max_latency_us = 0;
  frame_bytes = resumes_recovered = resumes_refused = 0;
  window_start = now_us();
  last_snapshot_at = 0;
  printf("RESET\n");
  fflush(stdout);
}

static void parse_list(const char *list, void (*take)(const char *item)) {
  char *copy = strdup(list), *saved = NULL;
  for (char *item = strtok_r(copy, ",", &saved); item; item = strtok_r(NULL, ",", &saved)) take(item);
}
static void take_port(const char *item) {
  if (opt.port_count < MAX_PORTS) opt.ports[opt.port_count++] = atoi(item);
}
static void take_source(const char *item) {
  if (opt.source_count < MAX_SOURCES && inet_pton(AF_INET, item, &opt.sources[opt.source_count]) == 1) opt.source_count++;
}
static void take_symbol(const char *item) {
  if (symbol_count < MAX_PAIRS) symbols[symbol_count] = strdup(item), symbol_len[symbol_count] = strlen(item), index_symbol(symbol_count++);
}

int main(int argc, char **argv) {
  for (int a = 1; a < argc; a++) {
    const char *v = strchr(argv[a], '=');
    if (!v) continue;
    v++;
    if (!strncmp(argv[a], "--n=", 4)) opt.count = atoi(v);
    else if (!strncmp(argv[a], "--port=", 7) || !strncmp(argv[a], "--ports=", 8)) parse_list(v, take_port);
    else if (!strncmp(argv[a], "--first-port-share=", 19)) opt.first_port_share = atoi(v);
    else if (!strncmp(argv[a], "--sources=", 10)) parse_list(v, take_source);
    else if (!strncmp(argv[a], "--pairs=", 8)) opt.pairs = v;
    else if (!strncmp(argv[a], "--all-pairs-share=", 18)) opt.all_pairs_share = atoi(v);
    else if (!strncmp(argv[a], "--symbols=", 10)) parse_list(v, take_symbol);
    else if (!strncmp(argv[a], "--origin=", 9)) opt.origin = v;
    else if (!strncmp(argv[a], "--query=", 8)) opt.query = v;
    else if (!strncmp(argv[a], "--quickack=", 11)) opt.quickack = atoi(v);
    else if (!strncmp(argv[a], "--inflight=", 11)) opt.inflight = atoi(v);
    else if (!strncmp(argv[a], "--seed=", 7)) opt.seed = (unsigned)strtoul(v, NULL, 10);
    else if (!strncmp(argv[a], "--resume=", 9)) opt.resume = atoi(v);
    else if (!strncmp(argv[a], "--format=", 9)) opt.compact = !strcmp(v, "compact");
    else if (!strncmp(argv[a], "--replay=", 9)) opt.replay_latest = !strcmp(v, "latest");
    else if (!strncmp(argv[a], "--window-ms=", 12)) opt.window_us = strtoull(v, NULL, 10) * 1000u;
    else if (!strncmp(argv[a], "--reconnect=", 12))
      opt.reconnect = !strcmp(v, "backoff") ? RECONNECT_BACKOFF : !strcmp(v, "at-once") ? RECONNECT_AT_ONCE : RECONNECT_NEVER;
  }
  if (opt.port_count == 0 || opt.count <= 0) {
    fprintf(stderr, "usage: stream-client --n=N --ports=P[,P2] [--first-port-share=PCT] [--sources=A,B] [--pairs=all|rand:K|A,B]\n"
                    "  [--all-pairs-share=PCT] [--symbols=A,B] [--origin=URL] [--query=K=V&..] [--inflight=N] [--reconnect=never|at-once|backoff] [--seed=S]\n"
                    "  [--resume=0|1] [--format=full|compact] [--replay=all|latest] [--window-ms=W]\n");
    return 2;
  }
  srand(opt.seed);
  struct timespec realtime;
  clock_gettime(CLOCK_REALTIME, &realtime);
  realtime_offset_us = (int64_t)((uint64_t)realtime.tv_sec * 1000000u + (uint64_t)realtime.tv_nsec / 1000u) - (int64_t)now_us();
  conns = calloc((size_t)opt.count, sizeof *conns);
  uint32_t *seq_table = malloc((size_t)opt.count * (size_t)(symbol_count ? symbol_count : 1) * sizeof *seq_table);
  if (!conns || !seq_table) return 1;
  for (int i = 0; i < opt.count; i++) {
    conns[i].fd = -1;
    conns[i].state = WAITING;
    conns[i].retry_at = 0;
    conns[i].last_seq = seq_table + (size_t)i * (size_t)(symbol_count ? symbol_count : 1);
    conns[i].port_index = opt.port_count > 1 && (i * 100 / opt.count) >= opt.first_port_share ? 1 : 0;
    choose_query(&conns[i]);
  }
  to_open = opt.count;
  epfd = epoll_create1(0);
  struct epoll_event control = {.events = EPOLLIN, .data.u32 = UINT32_MAX};
  epoll_ctl(epfd, EPOLL_CTL_ADD, 0, &control);
  window_start = now_us();
  int announced = 0, scan_from = 0;
  uint64_t next_scan = 0;
  struct epoll_event events[1024];
  char line[256];
  size_t line_len = 0;
  for (;;) {
    /* open what is due, at most `inflight` handshakes at a time */
    uint64_t now = now_us();
    if (to_open > 0 && in_flight < opt.inflight && now >= next_scan) {
      next_scan = now + 5000; /* a due connection waits at most 5 ms past its time */
      for (int n = 0; n < opt.count && in_flight < opt.inflight; n++) {
        int i = (scan_from + n) % opt.count;
        if (conns[i].state == WAITING && conns[i].retry_at <= now) start_connect(i), scan_from = i + 1, next_scan = 0;
      }
    }
    if (!announced && answered >= opt.count) {
      announced = 1;
      printf("CONNECTED %d failed=%lu refused=%lu\n", open_now, failed, refused);
      fflush(stdout);
    }
    int ready = epoll_wait(epfd, events, 1024, 10);
    for (int k = 0; k < ready; k++) {
      uint32_t id = events[k].data.u32;
      if (id == UINT32_MAX) {
        ssize_t r = read(0, line + line_len, sizeof line - line_len - 1);
        if (r <= 0) return 0;
        line_len += (size_t)r;
        line[line_len] = 0;
        char *newline;
        while ((newline = strchr(line, '\n'))) {
          *newline = 0;
          if (!strcmp(line, "reset")) reset();
          else if (!strcmp(line, "report")) report();
          else if (!strcmp(line, "quit")) return 0;
          size_t rest = line_len - (size_t)(newline + 1 - line);
          memmove(line, newline + 1, rest);
          line_len = rest;
          line[line_len] = 0;
        }
        continue;
      }
      conn_t *c = &conns[id];
      if (c->fd < 0) continue;
      if (c->state == CONNECTING) {
        if (events[k].events & (EPOLLERR | EPOLLHUP)) {
          failed++;
          drop((int)id, NOT_REFUSED);
          continue;
        }
        if (events[k].events & EPOLLOUT) send_upgrade((int)id);
        continue;
      }
      if (events[k].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) on_readable((int)id);
    }
  }
}
