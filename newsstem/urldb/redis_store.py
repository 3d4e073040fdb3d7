"""The shared URL store: Redis, for several crawl processes or machines.

Layout (all keys under a prefix, ``newsstem:urldb`` by default, so the store
can share a Redis database with scrapy-redis queues):

``<prefix>:u:<bucket>``
    hashes, one per bucket of 2**18 chosen by the first bits of the md5;
    field = the 16-byte md5, value = three big-endian uint32 times
    (first_seen, last_seen, exported_at; 0 = not exported), then one byte of kind
    (``store.COPY``, ``store.TEXT``) for an entry that is not a URL, and for a COPY
    the 16-byte key of the URL whose article it repeats, when known (a newsstem of
    before it reads the first 13 bytes, and a mark of its drops the rest). Small hashes are
    stored as listpacks, which costs a few tens of bytes per entry instead of
    the ~90 of one Redis key per URL (the "hash bucket" layout Redis documents
    for memory optimisation).
``<prefix>:meta``
    the layout version and bucket bits (layout 2 added the kind byte; a layout 1 store
    is taken as it is: its entries are URLs).
``<prefix>:holders`` / ``<prefix>:pruning``
    the lease: a sorted set of crawl holders scored by expiry time, and the
    exclusive prune holder with a time-to-live.
``<prefix>:redesign-counts``
    the redesign check's counts of the crawls that read too few pages of a site to judge
    it (``NEWSSTEM_REDESIGN_COUNTS``; kept here, not in a file beside the patterns, so
    that the workers of several machines add up one another's): a hash, field = the
    site and its pattern file's key (``"<site> <patterns key>"``: workers whose files of
    a site differ count apart), value = the JSON object of an entry of the counts file
    (:class:`newsstem.layout.redesign.CountsFile`), added to by one script per site
    (:class:`RedisRedesignCounts`). ``prune`` and ``stats`` leave it alone.
``<prefix>:patterns`` / ``<prefix>:patterns:<site>``
    the pattern files that crawls learned again (``NEWSSTEM_RELEARN``) and published for
    the other workers (``NEWSSTEM_SHARED_PATTERNS``): the index, a hash of site -> JSON
    ``{"key", "learned_at", "version"}``, and per site a hash of the file's ``json``
    text, its ``key`` (:func:`newsstem.layout.redesign.patterns_key`), ``learned_at``,
    ``version`` (1, 2, … at each publication), ``by`` (host and PID of the worker) and
    ``stamp:<key>`` for each file published there (its learned_at on the server's clock,
    in microseconds; the index entry has the current one's ``stamp``) but those older than
    the current file's by more than :data:`STAMPS_KEPT_US` (24 hours). Written by one
    script (:meth:`RedisUrlStore.publish_patterns`): the file learned last on the server's
    clock wins. ``unpublish_patterns`` deletes the file and its index entry and keeps the
    stamps. ``prune`` and ``stats`` leave them alone.

Every batch runs in one Lua script, so it is atomic and concurrent writers
merge their marks (earliest first_seen, latest last_seen, exports kept).
Lease expiries use the Redis server's clock, not the hosts'.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import socket
import struct
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis

from newsstem.redisping import QuickPing, client_like
from newsstem.urldb import hide_password
from newsstem.urldb.store import (
    COPY,
    KEY_BYTES,
    PRUNE_ADVICE,
    TEXT,
    URL,
    Lease,
    Progress,
    StoreBusy,
    StoreError,
    StoreStats,
    UrlEntry,
    UrlStore,
)

if TYPE_CHECKING:
    from newsstem.layout.redesign import SiteCounts, Window

logger = logging.getLogger(__name__)

LAYOUT_VERSION = 2
# 2**18 buckets keep each hash under Redis's listpack limit (128 entries by
# default) up to about 20M entries (76 per bucket at 20M on average).
BUCKET_BITS = 18
DEFAULT_PREFIX = "newsstem:urldb"
# Keys per script call: big enough to amortise the round trip, small enough
# that one call blocks Redis for at most a few milliseconds.
BATCH = 1000
# Buckets per stats/prune script call (about 40 entries each at 10M entries).
SCAN_BUCKETS = 512
# Keys per SCAN step when listing the buckets.
SCAN_COUNT = 2000
# A crawl renews its lease at every store sync (seconds apart); a holder killed
# with kill -9 stops renewing and its lease lapses after this long.
LEASE_TTL_MS = 60_000
CONNECT_TIMEOUT_SECONDS = 5.0
# A call Redis does not answer (paused, partitioned: the connection open, no reply) fails
# after this long. A crawl's calls are small (a batch of lookups or marks, a lease
# renewal: milliseconds) and the first failed call of an outage holds the whole crawl for
# it (the middleware then asks a one-second PING before trying again). 30 s, redis-py's
# usual, stalled a crawl half a minute. A ``?socket_timeout=`` in the URI replaces both.
SOCKET_TIMEOUT_SECONDS = 5.0
# ... and the calls that go over every bucket (``urldb stats``, ``urldb prune``: scripts
# over 512 buckets, which may run for seconds on a big store) wait this long.
SCAN_SOCKET_TIMEOUT_SECONDS = 60.0
# Lua struct and TIME inside write scripts need Redis >= 5.
MIN_SERVER_VERSION = (5, 0)

_ENTRY = struct.Struct(">IIIB")  # as a lookup returns it: the kind byte always there
_UNKNOWN_ORIGIN = bytes(16)  # no key a COPY entry repeats: not given, not recorded

# Lookups and marks take the keys as one blob of 16-byte keys and compute each
# key's bucket in the script: one argument instead of two per key (redis-py's
# command packing, not Redis, bounds the rate otherwise). Buckets are therefore
# not declared in KEYS: fine on a standalone Redis (or Sentinel), not on Cluster.
_BUCKET_OF = """
local function bucket_of(prefix, div, k)
  local b1, b2, b3 = string.byte(k, 1, 3)
  return prefix .. string.format('%06x', math.floor((b1 * 65536 + b2 * 256 + b3) / div))
end
"""
# ARGV: bucket prefix, divisor, keys. Returns 13 bytes per key (the three times and the
# kind, 0 for a URL, which the store writes as no byte), zeros if absent.
_LOOKUP = (
    _BUCKET_OF
    + """
local prefix, div, blob = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local absent = string.rep('\\0', 13)
local out = {}
for i = 1, #blob, 16 do
  local k = string.sub(blob, i, i + 15)
  local v = redis.call('HGET', bucket_of(prefix, div, k), k)
  out[#out + 1] = v and string.sub(v .. '\\0', 1, 13) or absent
end
return table.concat(out)
"""
)
# ARGV: bucket prefix, divisor, now, '1' to mark exported, keys, their kinds (one byte
# each, for exports: an export sets the kind, except that a URL exported as an article
# stays one (recorded again as a copy, of itself: two crawls at once); a seen mark keeps it),
# the keys their COPY entries repeat (16 bytes each, zeros: not given, the old one kept;
# an entry that is no COPY after the mark keeps none).
_MARK = (
    _BUCKET_OF
    + """
local prefix, div, now = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local exported, blob, kinds, origins = ARGV[4] == '1', ARGV[5], ARGV[6], ARGV[7]
local unknown = string.rep('\\0', 16)
for i = 1, #blob, 16 do
  local k = string.sub(blob, i, i + 15)
  local bucket = bucket_of(prefix, div, k)
  local first, last, exp, kind, origin = now, now, 0, '', ''
  local old = redis.call('HGET', bucket, k)
  if old then
    first, last, exp = struct.unpack('>I4I4I4', old)
    kind = string.sub(old, 13, 13)
    origin = string.sub(old, 14, 29)
    if now < first then first = now end
    if now > last then last = now end
  end
  if exported then
    local at = (i + 15) / 16  -- the key's place in the blob
    local new = string.sub(kinds, at, at)
    if new == '\\0' then new = '' end
    if new == '\\1' or not (kind == '' and exp > 0) then kind = new end
    if now > exp then exp = now end
    local given = string.sub(origins, i, i + 15)
    if #given == 16 and given ~= unknown then origin = given end
  end
  if kind ~= '\\2' then origin = '' end
  redis.call('HSET', bucket, k, struct.pack('>I4I4I4', first, last, exp) .. kind .. origin)
end
return #blob / 16
"""
)
# ARGV: bucket prefix, divisor, keys. Returns 16 bytes per key: the key whose article the
# COPY entry repeats, zeros if the store does not know (absent, no copy, not recorded).
_COPIES_OF = (
    _BUCKET_OF
    + """
local prefix, div, blob = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local unknown = string.rep('\\0', 16)
local out = {}
for i = 1, #blob, 16 do
  local k = string.sub(blob, i, i + 15)
  local v = redis.call('HGET', bucket_of(prefix, div, k), k)
  local origin = v and string.byte(v, 13) == 2 and string.sub(v, 14, 29) or ''
  out[#out + 1] = #origin == 16 and origin or unknown
end
return table.concat(out)
"""
)
_STATS = """
local text, copy = tonumber(ARGV[1]), tonumber(ARGV[2])
local n, urls, articles, copies, size = 0, 0, 0, 0, 0
local fmin, fmax, lmin, lmax = false, false, false, false
for i = 1, #KEYS do
  local all = redis.call('HGETALL', KEYS[i])
  if #all > 0 then
    size = size + redis.call('MEMORY', 'USAGE', KEYS[i])
    for j = 2, #all, 2 do
      local first, last, exp = struct.unpack('>I4I4I4', all[j])
      local kind = string.byte(all[j], 13) or 0
      n = n + 1
      if kind ~= text then urls = urls + 1 end
      if kind == 0 and exp > 0 then articles = articles + 1 end
      if kind == copy then copies = copies + 1 end
      if not fmin or first < fmin then fmin = first end
      if not fmax or first > fmax then fmax = first end
      if not lmin or last < lmin then lmin = last end
      if not lmax or last > lmax then lmax = last end
    end
  end
end
return {n, urls, articles, copies, size, fmin or -1, fmax or -1, lmin or -1, lmax or -1}
"""
_PRUNE = """
local before = tonumber(ARGV[1])
local dry = ARGV[2] == '1'
local removed = 0
for i = 1, #KEYS do
  local all = redis.call('HGETALL', KEYS[i])
  local stale = {}
  for j = 1, #all, 2 do
    local first, last = struct.unpack('>I4I4I4', all[j + 1])
    if last < before then stale[#stale + 1] = all[j] end
  end
  removed = removed + #stale
  if not dry and #stale > 0 then redis.call('HDEL', KEYS[i], unpack(stale)) end
end
return removed
"""
# KEYS: the redesign counts hash. ARGV: the window's field ("<site> <patterns key>"),
# the patterns key, the crawl's start (ISO 8601 UTC), the least number of pages to judge,
# then the counts' names and values. Adds the counts to the window (dropped if not JSON);
# returns {1, since, counts...} and deletes the window once it holds enough pages to
# judge, else keeps it and returns {0}.
_REDESIGN_COUNTS = """
local site, patterns, since, least = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local earlier = nil
local stored = redis.call('HGET', KEYS[1], site)
if stored then
  local ok, entry = pcall(cjson.decode, stored)
  if ok and type(entry) == 'table' and entry.patterns == patterns then earlier = entry end
end
if earlier and type(earlier.since) == 'string' and earlier.since < since then
  since = earlier.since
end
local window = {patterns = patterns, since = since}
local out = {1, since}
for i = 5, #ARGV, 2 do
  local value = tonumber(ARGV[i + 1])
  if earlier then value = value + (tonumber(earlier[ARGV[i]]) or 0) end
  window[ARGV[i]] = value
  out[#out + 1] = value
end
if window.pages >= least then
  redis.call('HDEL', KEYS[1], site)
  return out
end
redis.call('HSET', KEYS[1], site, cjson.encode(window))
return {0}
"""
# KEYS: the site's published patterns hash, the index hash. ARGV: the site, the file's
# patterns key, its learned_at (ISO 8601 UTC, microseconds; kept for people), its JSON
# text, the worker publishing it, its learned_at in microseconds since the epoch ('' when
# it has none) and the publisher's clock now, in microseconds. The file's stamp is its
# learned_at on the Redis server's clock: learned_at + (server TIME - publisher's now),
# so that machines whose clocks disagree are ordered alike. The file of the latest stamp
# wins (then the greater key on a tie: the same winner whatever order workers publish in);
# one the store holds already, or one learned before the store's, is refused. A file
# published by a newsstem without stamps (no 'stamp:<key>' field) is compared by
# learned_at as that newsstem did. Every key published keeps its stamp ('stamp:<key>'),
# so a worker holding a file loaded from the store compares it without clocks, until the
# stamp is older than the file published's by more than ARGV[9] (STAMPS_KEPT_US): it is
# then deleted when a file is published (a worker holding that copy orders it by its
# learned_at and its own clock's offset, right unless the publisher's and its clocks
# disagree by more than that). Returns {1 published / 0 refused, the version held, its
# learned_at, its key, its stamp ('' for none), this file's stamp}.
_PUBLISH_PATTERNS = """
local t = redis.call('TIME')
local stamp = 0
if ARGV[6] ~= '' then
  local ahead = tonumber(t[1]) * 1000000 + tonumber(t[2]) - tonumber(ARGV[7])
  if math.abs(ahead) < tonumber(ARGV[8]) then ahead = 0 end
  stamp = tonumber(ARGV[6]) + ahead
end
local mine = string.format('%.0f', stamp)
local at = redis.call('HGET', KEYS[1], 'learned_at')
local key = redis.call('HGET', KEYS[1], 'key')
if at and key then
  local held = redis.call('HGET', KEYS[1], 'stamp:' .. key)
  local refused
  if key == ARGV[2] then
    refused = true
  elseif held then
    local h = tonumber(held)
    refused = h > stamp or (h == stamp and key > ARGV[2])
  else
    refused = at > ARGV[3] or (at == ARGV[3] and key >= ARGV[2])
  end
  if refused then
    return {0, tonumber(redis.call('HGET', KEYS[1], 'version')) or 0, at, key, held or '',
            mine}
  end
end
local oldest = stamp - tonumber(ARGV[9])
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, 6) == 'stamp:' then
    local value = tonumber(redis.call('HGET', KEYS[1], field))
    if value ~= nil and value < oldest then
      redis.call('HDEL', KEYS[1], field)
    end
  end
end
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'key', ARGV[2], 'learned_at', ARGV[3], 'json', ARGV[4],
           'by', ARGV[5], 'stamp:' .. ARGV[2], mine)
redis.call('HSET', KEYS[2], ARGV[1],
           cjson.encode({key = ARGV[2], learned_at = ARGV[3], version = version,
                         stamp = mine}))
return {1, version, ARGV[3], ARGV[2], mine, mine}
"""
# KEYS: the site's published patterns hash, the index hash. ARGV: the site. Deletes the
# file (its json, key, learned_at, by and version fields) and its index entry, and keeps
# the stamps ('stamp:<key>'), so that the workers holding a copy of the file deleted (or
# of one before it) are still ordered on the server's clock against the next file
# published; returns the hash's version, learned_at, key and by, then the index entry
# (false for each one that was not there).
_UNPUBLISH_PATTERNS = """
local held = redis.call('HMGET', KEYS[1], 'version', 'learned_at', 'key', 'by')
local entry = redis.call('HGET', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[1], 'json', 'key', 'learned_at', 'by', 'version')
redis.call('HDEL', KEYS[2], ARGV[1])
return {held[1], held[2], held[3], held[4], entry}
"""
# KEYS: holders, pruning. ARGV: holder id, ttl ms.
_NOW_MS = "local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000)\n"
_ACQUIRE_SHARED = (
    _NOW_MS
    + """
local pruner = redis.call('GET', KEYS[2])
if pruner then return {0, pruner} end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
return {1, ''}
"""
)
_ACQUIRE_EXCLUSIVE = (
    _NOW_MS
    + """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local crawls = redis.call('ZRANGE', KEYS[1], 0, -1)
if #crawls > 0 then return {0, table.concat(crawls, ', ')} end
if not redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {0, redis.call('GET', KEYS[2]) or ''}
end
return {1, ''}
"""
)
# A crawl's renewal: 1 = renewed, 2 = had lapsed and was taken again, 0 = a prune holds it.
_RENEW_SHARED = (
    _NOW_MS
    + """
local lapsed = not redis.call('ZSCORE', KEYS[1], ARGV[1])
if lapsed and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
if lapsed then return 2 end
return 1
"""
)
_RENEW_EXCLUSIVE = """
if redis.call('GET', KEYS[2]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return 1
end
return 0
"""
_RELEASE = """
redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1
"""


def _holder_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class RedisLease(Lease):
    """A lease in Redis with a time-to-live; the holder renews it while it works."""

    def __init__(self, store: RedisUrlStore, exclusive: bool) -> None:
        self.store = store
        self.exclusive = exclusive
        self.holder = _holder_id()
        script = store._scripts["acquire_exclusive" if exclusive else "acquire_shared"]
        granted, other = store._run(script, self._keys, [self.holder, store.lease_ttl_ms])
        if not granted:
            other = other.decode() if isinstance(other, bytes) else other
            if exclusive:
                raise StoreBusy(
                    f"the URL store {store.uri} is in use by {other}; {PRUNE_ADVICE}"
                )
            raise StoreBusy(
                f"the URL store {store.uri} is being pruned by {other}; start the crawl "
                "when `scrapy urldb prune` has finished"
            )
        self._held = True

    @property
    def _keys(self) -> list[str]:
        return [self.store._holders_key, self.store._pruning_key]

    def renew(self) -> None:
        if not self._held:
            return
        script = self.store._scripts["renew_exclusive" if self.exclusive else "renew_shared"]
        result = self.store._run(script, self._keys, [self.holder, self.store.lease_ttl_ms])
        if result == 2:
            logger.warning(
                "newsstem: the lease on the URL store %s had expired (no renewal for %.0f s; "
                "a prune may have run meanwhile) and was taken again; raise ?lease_ttl= if "
                "the crawl pauses that long",
                self.store.uri, self.store.lease_ttl_ms / 1000,
            )
        elif result == 0:
            self._held = False
            raise StoreBusy(f"lost the lease on the URL store {self.store.uri}")

    def release(self) -> None:
        if self._held:
            self._held = False
            self.store._run(self.store._scripts["release"], self._keys, [self.holder])


class RedisUrlStore(UrlStore):
    """The URL store in a Redis database, under ``prefix``."""

    def __init__(
        self,
        client: redis.Redis,
        prefix: str = DEFAULT_PREFIX,
        uri: str = "redis",
        lease_ttl_ms: int = LEASE_TTL_MS,
        scan_socket_timeout: float | None = None,
        *,
        read_only: bool = False,
        create: bool = True,
    ) -> None:
        self.client = client
        self.read_only = read_only
        # False (scrapy urldb): a prefix without a layout record is no store, an error (a
        # typo in the database or ?prefix= read as an empty store, and prune wrote one)
        self.create = create
        self.scan_socket_timeout = scan_socket_timeout  # None: the client's own
        # PING on a connection of its own with a short timeout (the store's own have long
        # ones: a prune script may run for seconds)
        self._quick_ping = QuickPing(client)
        # the calls over every bucket, on a connection with a longer timeout (made when
        # first needed; the store's own client when its timeout came with the URI)
        self._scan_client: redis.Redis | None = None
        self.prefix = prefix
        self.uri = uri
        self.lease_ttl_ms = lease_ttl_ms
        self._holders_key = f"{prefix}:holders"
        self._redesign_key = f"{prefix}:redesign-counts"
        self._patterns_key = f"{prefix}:patterns"
        self._pruning_key = f"{prefix}:pruning"
        self._check_server()
        self.bucket_bits = self._load_layout()
        self._bucket_args = [f"{prefix}:u:", 1 << (24 - self.bucket_bits)]
        self._scripts = {
            name: client.register_script(source)
            for name, source in {
                "lookup": _LOOKUP,
                "copies_of": _COPIES_OF,
                "mark": _MARK,
                "stats": _STATS,
                "prune": _PRUNE,
                "acquire_shared": _ACQUIRE_SHARED,
                "acquire_exclusive": _ACQUIRE_EXCLUSIVE,
                "renew_shared": _RENEW_SHARED,
                "renew_exclusive": _RENEW_EXCLUSIVE,
                "release": _RELEASE,
                "redesign_counts": _REDESIGN_COUNTS,
                "publish_patterns": _PUBLISH_PATTERNS,
                "unpublish_patterns": _UNPUBLISH_PATTERNS,
            }.items()
        }

    @classmethod
    def from_uri(
        cls, uri: str, *, read_only: bool = False, create: bool = True
    ) -> RedisUrlStore:
        """``redis://[:password@]host:port/db`` (also ``rediss://``, ``unix://``).

        Query options of the store (the others go to redis-py): ``prefix`` of
        its keys (default ``newsstem:urldb``), ``lease_ttl`` in seconds
        (default 60: how long a killed crawl blocks ``prune``). ``socket_timeout``
        (redis-py's) replaces :data:`SOCKET_TIMEOUT_SECONDS` and
        :data:`SCAN_SOCKET_TIMEOUT_SECONDS`.
        """
        parts = urlsplit(uri)
        shown = hide_password(uri)
        prefix, ttl_ms, rest = DEFAULT_PREFIX, LEASE_TTL_MS, []
        for name, value in parse_qsl(parts.query, keep_blank_values=True):
            if name == "prefix":
                if not value:
                    raise StoreError(f"URL store URI {shown}: empty prefix")
                prefix = value
            elif name == "lease_ttl":
                try:
                    ttl_ms = int(float(value) * 1000)
                except ValueError:
                    ttl_ms = 0
                if ttl_ms <= 0:
                    raise StoreError(f"URL store URI {shown}: lease_ttl must be seconds > 0")
            else:
                rest.append((name, value))
        redis_uri = urlunsplit(parts._replace(query=urlencode(rest)))
        try:
            parts.port  # noqa: B018  (raises ValueError on a port that is not a number)
        except ValueError:
            raise StoreError(f"URL store URI {shown}: the port is not a number") from None
        if parts.scheme in ("redis", "rediss") and not parts.hostname:
            raise StoreError(f"URL store URI {shown} has no host: use redis://host:port/db")
        try:
            client = redis.Redis.from_url(
                redis_uri,
                socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
                socket_timeout=SOCKET_TIMEOUT_SECONDS,
            )
        except (ValueError, TypeError) as exc:
            raise StoreError(f"URL store URI {shown} is not a valid Redis URL: {exc}") from None
        try:
            given = any(name == "socket_timeout" for name, _ in rest)
            scan = None if given else SCAN_SOCKET_TIMEOUT_SECONDS
            return cls(client, prefix, shown, ttl_ms, scan, read_only=read_only, create=create)
        except StoreError:  # unreachable, too old, another layout: let go of its connections
            client.close()
            raise

    def _check_server(self) -> None:
        try:
            info = self.client.info("server")
        except redis.AuthenticationError as exc:
            raise StoreError(f"Redis at {self.uri} refused the credentials: {exc}") from None
        except redis.RedisError as exc:
            # (redis-py's messages end in a full stop: "Connection refused.;" read badly)
            raise StoreError(
                f"cannot reach the URL store at {self.uri}: {str(exc).rstrip('.')}; "
                "check that redis-server runs there, or name another store "
                "(NEWSSTEM_URLDB; scrapy urldb --urldb)"
            ) from None
        version = tuple(int(p) for p in str(info.get("redis_version", "0.0")).split(".")[:2])
        if version < MIN_SERVER_VERSION:
            raise StoreError(
                f"Redis at {self.uri} is version {info.get('redis_version')}; "
                f"the URL store needs >= {'.'.join(map(str, MIN_SERVER_VERSION))}"
            )

    def _load_layout(self) -> int:
        """The store's bucket bits; a new store gets its layout record, and a layout 1
        store is raised to layout 2, unless read-only (``scrapy urldb stats``/``show``):
        then nothing is written, a layout 1 store reads as it is (its entries are URLs,
        as the upgrade takes them) and one without a record as an empty store; with
        ``create`` False (``scrapy urldb``) a prefix without a record is an error."""
        meta = f"{self.prefix}:meta"
        try:
            if not self.create and not self.client.exists(meta):
                # every store has its record from its first opening by a crawl on
                raise StoreError(
                    f"no URL store at {self.uri} under the prefix {self.prefix!r} (a crawl "
                    "creates it): check the database number and ?prefix= of --urldb or "
                    "NEWSSTEM_URLDB (or NEWSSTEM_DISTRIBUTED)"
                )
            if not self.read_only:
                self.client.hsetnx(meta, "version", LAYOUT_VERSION)
                self.client.hsetnx(meta, "bucket_bits", BUCKET_BITS)
            stored = self.client.hgetall(meta)
        except redis.RedisError as exc:
            raise StoreError(f"URL store {self.uri}: cannot read its layout: {exc}") from None
        if self.read_only and not stored:
            stored = {b"version": b"%d" % LAYOUT_VERSION, b"bucket_bits": b"%d" % BUCKET_BITS}
        try:
            version = int(stored[b"version"])
            bits = int(stored[b"bucket_bits"])
        except (KeyError, ValueError):
            raise StoreError(
                f"URL store {self.uri}: {meta} is not a newsstem layout record; "
                "use another ?prefix= or database"
            ) from None
        if version > LAYOUT_VERSION:
            raise StoreError(f"URL store {self.uri} was written by a newer newsstem; upgrade")
        if not 1 <= bits <= 24:
            raise StoreError(f"URL store {self.uri}: bad bucket_bits {bits} in {meta}")
        # Layout 1 reads as it is (its entries are URLs); an older newsstem, which would
        # misread a kind byte, now refuses the store. Read-only, it is left at layout 1 so
        # an older newsstem still using it (a scrapyd's egg) goes on.
        if version < LAYOUT_VERSION and not self.read_only:
            try:
                self.client.hset(meta, "version", LAYOUT_VERSION)
            except redis.RedisError as exc:
                raise StoreError(
                    f"URL store {self.uri}: cannot upgrade its layout: {exc}"
                ) from None
        return bits

    def _writable(self, what: str) -> None:
        if self.read_only:
            raise StoreError(f"URL store {self.uri}: {what}: the store was opened read-only")

    def _run(self, script, keys: list, args: list, client=None):  # noqa: ANN001, ANN202
        try:
            return script(keys=keys, args=args, client=client)
        except redis.RedisError as exc:
            raise StoreError(f"URL store {self.uri}: {exc}") from exc

    def _scanning(self) -> redis.Redis:
        """The client of the calls over every bucket: one with ``scan_socket_timeout``
        (:data:`SCAN_SOCKET_TIMEOUT_SECONDS` unless the URI gave a timeout), else the
        store's own."""
        if self.scan_socket_timeout is None:
            return self.client
        if self._scan_client is None:
            self._scan_client = client_like(self.client, socket_timeout=self.scan_socket_timeout)
        return self._scan_client

    def _all_buckets(self) -> list[list[bytes]]:
        """The existing bucket keys, in chunks (SCAN may repeat a key: duplicates removed)."""
        pattern = _glob_escape(f"{self.prefix}:u:") + "*"
        try:
            names = sorted(set(self._scanning().scan_iter(match=pattern, count=SCAN_COUNT)))
        except redis.RedisError as exc:
            raise StoreError(f"URL store {self.uri}: {exc}") from exc
        return [names[i : i + SCAN_BUCKETS] for i in range(0, len(names), SCAN_BUCKETS)]

    # -- reads ------------------------------------------------------------------

    def lookup(self, keys: Sequence[bytes]) -> dict[bytes, UrlEntry]:
        found: dict[bytes, UrlEntry] = {}
        keys = list(keys)
        for start in range(0, len(keys), BATCH):
            chunk = keys[start : start + BATCH]
            blob = self._run(self._scripts["lookup"], [], [*self._bucket_args, _blob(chunk)])
            for key, (first, last, exported, kind) in zip(chunk, _ENTRY.iter_unpack(blob)):
                if first:  # zeros: absent
                    found[key] = UrlEntry(first, last, exported or None, kind)
        return found

    def copies_of(self, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        found: dict[bytes, bytes] = {}
        keys = list(keys)
        for start in range(0, len(keys), BATCH):
            chunk = keys[start : start + BATCH]
            blob = self._run(self._scripts["copies_of"], [], [*self._bucket_args, _blob(chunk)])
            for n, key in enumerate(chunk):
                origin = blob[16 * n : 16 * n + 16]
                if origin != _UNKNOWN_ORIGIN:
                    found[key] = origin
        return found

    def stats(self) -> StoreStats:
        counts = [0] * 5  # entries, urls, articles, copies, size
        times: list[list[int]] = [[], [], [], []]
        for names in self._all_buckets():
            result = self._run(self._scripts["stats"], names, [TEXT, COPY], self._scanning())
            counts = [a + b for a, b in zip(counts, result[:5])]
            for slot, value in zip(times, result[5:]):
                if value >= 0:
                    slot.append(value)
        fmin, fmax, lmin, lmax = (
            (min(times[0]) if times[0] else None),
            (max(times[1]) if times[1] else None),
            (min(times[2]) if times[2] else None),
            (max(times[3]) if times[3] else None),
        )
        n, urls, articles, copies, size = counts
        return StoreStats(n, urls, articles, copies, n - urls, size, fmin, fmax, lmin, lmax)

    # -- writes -----------------------------------------------------------------

    def _mark(
        self,
        keys: Iterable[bytes],
        when: int,
        exported: bool,
        kinds: Mapping[bytes, int],
        copies_of: Mapping[bytes, bytes] | None = None,
    ) -> None:
        self._writable("mark exported" if exported else "mark seen")
        copies_of = copies_of or {}
        keys = sorted(set(keys))
        for start in range(0, len(keys), BATCH):
            chunk = keys[start : start + BATCH]
            self._run(
                self._scripts["mark"],
                [],
                [
                    *self._bucket_args,
                    when,
                    "1" if exported else "0",
                    _blob(chunk),
                    bytes(kinds.get(key, URL) for key in chunk),
                    b"".join(copies_of.get(key, _UNKNOWN_ORIGIN) for key in chunk),
                ],
            )

    def mark_seen(self, keys: Iterable[bytes], when: int) -> None:
        self._mark(keys, when, exported=False, kinds={})

    def mark_exported(
        self,
        keys: Iterable[bytes],
        when: int,
        kinds: Mapping[bytes, int] | None = None,
        copies_of: Mapping[bytes, bytes] | None = None,
    ) -> None:
        self._mark(keys, when, exported=True, kinds=kinds or {}, copies_of=copies_of)

    def prune(
        self, seen_before: int, dry_run: bool = False, progress: Progress | None = None
    ) -> int:
        self._writable("prune")
        removed = 0
        chunks = self._all_buckets()
        for done, names in enumerate(chunks, 1):
            removed += self._run(
                self._scripts["prune"], names, [seen_before, "1" if dry_run else "0"],
                self._scanning(),
            )
            if progress is not None:
                progress(done, len(chunks))
        return removed

    def add_redesign_counts(
        self, site: str, patterns: str, started: str, counts: Mapping[str, int],
        min_pages: int,
    ) -> tuple[str, dict[str, int]] | None:
        """Add a crawl's redesign ``counts`` of a site to its window, in one atomic script
        (several workers ending at once lose none): (since, the window's counts) once it
        holds ``min_pages`` pages (it is then deleted: counting starts again), else None
        (kept). Each pattern file of a site has its own window (field ``"<site>
        <patterns>"``); one that is not JSON is dropped; ``since`` is the earliest start
        of the crawls counted (``started``: this one's)."""
        self._writable("add redesign counts")
        names = list(counts)
        # One window per site and pattern file: workers whose files differ (one learned
        # the site again) count apart, each against its own, instead of dropping each
        # other's window at every crawl's end.
        result = self._run(
            self._scripts["redesign_counts"], [self._redesign_key],
            [f"{site} {patterns}", patterns, started, min_pages,
             *(item for name in names for item in (name, int(counts[name])))],
        )
        if not result[0]:
            return None
        since = result[1].decode() if isinstance(result[1], bytes) else str(result[1])
        return since, dict(zip(names, (int(value) for value in result[2:])))

    # -- published pattern files ------------------------------------------------

    def publish_patterns(
        self, site: str, key: str, learned_at: str, text: str,
        clock: Callable[[], float] = time.time,
    ) -> PublishedPatterns:
        """Publish the pattern file of a site (its JSON ``text``, its patterns ``key``,
        when it was ``learned_at`` by ``clock``, this machine's) for the other workers, in
        one atomic script: the file learned last on the Redis server's clock wins (its
        ``stamp``: ``learned_at`` plus how far the server's clock is ahead of ``clock``
        now, unless that is under :data:`CLOCK_TOLERANCE_US`; then the greater ``key``).
        What the store holds afterwards, and whether it is this file (``published``)."""
        self._writable("publish patterns")
        learned = epoch_microseconds(learned_at)
        result = self._run(
            self._scripts["publish_patterns"],
            [f"{self._patterns_key}:{site}", self._patterns_key],
            [site, key, learned_at, text, f"{socket.gethostname()} {os.getpid()}",
             "" if learned is None else learned, round(clock() * 1_000_000),
             CLOCK_TOLERANCE_US, STAMPS_KEPT_US],
        )
        return PublishedPatterns(
            int(result[1]), _text(result[2]), _text(result[3]), published=bool(result[0]),
            stamp=_stamp(result[4]), offered=_stamp(result[5]),
        )

    def published_patterns(self) -> dict[str, PublishedPatterns]:
        """The index of the published pattern files: site -> version, learned_at, key,
        stamp (an entry that is not what :meth:`publish_patterns` writes is left out)."""
        try:
            index = self.client.hgetall(self._patterns_key)
        except redis.RedisError as exc:
            raise StoreError(f"URL store {self.uri}: {exc}") from exc
        found: dict[str, PublishedPatterns] = {}
        for site, value in index.items():
            try:
                entry = json.loads(value)
                found[_text(site)] = PublishedPatterns(
                    int(entry["version"]), str(entry["learned_at"]), str(entry["key"]),
                    stamp=_stamp(entry.get("stamp")),
                )
            except (ValueError, TypeError, KeyError, AttributeError):
                continue
        return found

    def published_pattern_text(self, site: str) -> tuple[PublishedPatterns, str] | None:
        """The published pattern file of a site and its JSON text, or None. Read in one
        command (the hash whole: its stamps are one short field per publication of the
        last :data:`STAMPS_KEPT_US`), so that the stamp is the file's even if the site is
        unpublished or published again meanwhile."""
        try:
            held = self.client.hgetall(f"{self._patterns_key}:{site}")
        except redis.RedisError as exc:
            raise StoreError(f"URL store {self.uri}: {exc}") from exc
        version, learned_at, key, text = (
            held.get(name) for name in (b"version", b"learned_at", b"key", b"json")
        )
        if None in (version, learned_at, key, text):
            return None
        return PublishedPatterns(
            int(version), _text(learned_at), _text(key), stamp=_stamp(held.get(b"stamp:" + key))
        ), _text(text)

    def published_stamp(self, site: str, key: str) -> int | None:
        """The stamp (:meth:`publish_patterns`) of the file of ``site`` whose patterns key
        is ``key``, if the store published it, now or before (a worker's file loaded from
        the store), else None."""
        try:
            return _stamp(self.client.hget(f"{self._patterns_key}:{site}", f"stamp:{key}"))
        except redis.RedisError as exc:
            raise StoreError(f"URL store {self.uri}: {exc}") from exc

    def server_time(self) -> float:
        """The Redis server's clock: seconds since the epoch."""
        try:
            seconds, microseconds = self.client.time()
        except redis.RedisError as exc:
            raise StoreError(f"URL store {self.uri}: {exc}") from exc
        return seconds + microseconds / 1_000_000

    def unpublish_patterns(self, site: str) -> tuple[PublishedPatterns, str] | None:
        """Delete the published pattern file of a site and its index entry, in one atomic
        script, keeping the stamps of the site's hash (a worker that loaded the file keeps
        its copy, ordered by its stamp against the next file published): what was published
        (and by whom: host and PID, or ``""``), or None when nothing was."""
        self._writable("unpublish patterns")
        version, learned_at, key, by, entry = self._run(
            self._scripts["unpublish_patterns"],
            [f"{self._patterns_key}:{site}", self._patterns_key], [site],
        )
        if key is None and entry is not None:  # the index entry alone (a hash deleted by hand)
            try:
                held = json.loads(entry)
                version, learned_at, key = held["version"], held["learned_at"], held["key"]
            except (ValueError, TypeError, KeyError):
                key = "?"
        if key is None:
            return None
        return PublishedPatterns(
            int(version or 0), _text(learned_at or ""), _text(key)
        ), _text(by or "")

    def published_by(self, sites: Sequence[str]) -> dict[str, str]:
        """Who published each site's file (``by``: host and PID), for the sites that have
        one."""
        try:
            with self.client.pipeline(transaction=False) as pipe:
                for site in sites:
                    pipe.hget(f"{self._patterns_key}:{site}", "by")
                found = pipe.execute()
        except redis.RedisError as exc:
            raise StoreError(f"URL store {self.uri}: {exc}") from exc
        return {site: _text(by) for site, by in zip(sites, found) if by is not None}

    # -- lifecycle --------------------------------------------------------------

    def lease(self, exclusive: bool) -> RedisLease:
        self._writable("lease")
        return RedisLease(self, exclusive)

    def ping(self) -> None:
        try:
            self._quick_ping.ping()
        except redis.RedisError as exc:
            raise StoreError(f"URL store {self.uri}: {exc}") from exc

    def close(self) -> None:
        self.client.close()
        self._quick_ping.close()
        if self._scan_client is not None:
            self._scan_client.close()
            self._scan_client = None  # made again when next needed, as the PING's is


class RedisRedesignCounts:
    """The redesign check's counts (:class:`newsstem.layout.redesign.Counts`) in a shared
    Redis URL store: the crawls of every worker, on every machine, add up there."""

    def __init__(self, store: RedisUrlStore) -> None:
        self.store = store

    def add(
        self, site: str, patterns: str, started: str, counts: SiteCounts, min_pages: int
    ) -> Window | None:
        from newsstem.layout.redesign import SiteCounts, Window

        added = self.store.add_redesign_counts(
            site, patterns, started, dataclasses.asdict(counts), min_pages
        )
        if added is None:
            return None
        since, total = added
        return Window(patterns, since, SiteCounts(**total))


class PublishedPatterns(NamedTuple):
    """A pattern file published in the Redis URL store (:meth:`RedisUrlStore.publish_patterns`)."""

    version: int  # 1 for the site's first publication, then 2, 3 ...
    learned_at: str
    key: str  # newsstem.layout.redesign.patterns_key() of the file
    published: bool = False  # (publish_patterns) the store took the file given
    # its learned_at on the Redis server's clock, in microseconds since the epoch (what
    # orders the files: clocks of machines may disagree); None: published by a newsstem
    # of before stamps (ordered by learned_at then)
    stamp: int | None = None
    offered: int | None = None  # (publish_patterns) the stamp of the file given


#: a clock that differs from the Redis server's by less (microseconds) is taken as right
#: when a pattern file is stamped: the difference measured holds the network's delay,
#: and would order files learned within milliseconds of each other by their publishing
CLOCK_TOLERANCE_US = 1_000_000

#: how much older than the file published a stamp (``stamp:<key>``) of the site's hash
#: may be and stay (microseconds: 24 hours): older ones are deleted when a file is
#: published. A worker holding a copy whose stamp is gone orders it by its ``learned_at``
#: put on the server's clock by its own clock's offset: it still loses to the file
#: published unless its clock and the publisher's of that copy disagree by more than this.
STAMPS_KEPT_US = 24 * 3600 * 1_000_000


def clock_ahead(server_us: int, own_us: int) -> int:
    """How far the server's clock is ahead of a machine's (microseconds; 0 under
    :data:`CLOCK_TOLERANCE_US`), as the publishing script reckons it."""
    ahead = server_us - own_us
    return 0 if abs(ahead) < CLOCK_TOLERANCE_US else ahead


def epoch_microseconds(iso: str) -> int | None:
    """An ISO 8601 UTC instant (a ``learned_at``) in microseconds since the epoch, or None
    (empty, or not a time).

    >>> epoch_microseconds("1970-01-01T00:00:01.000002Z"), epoch_microseconds("")
    (1000002, None)
    """
    try:
        when = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    delta = when - datetime(1970, 1, 1, tzinfo=timezone.utc)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def _stamp(value: object) -> int | None:
    if isinstance(value, bytes):
        value = value.decode("ascii", "replace")
    try:
        return int(str(value)) if value not in (None, "") else None
    except ValueError:
        return None


def _text(value: bytes | str) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _blob(keys: Sequence[bytes]) -> bytes:
    blob = b"".join(keys)
    if len(blob) != KEY_BYTES * len(keys):
        raise ValueError(
            f"URL store keys are {KEY_BYTES}-byte md5 digests (newsstem.urldb.url_key)"
        )
    return blob


def _glob_escape(text: str) -> str:
    r"""Escape Redis glob characters.

    >>> _glob_escape("a*b[1]")
    'a\\*b\\[1\\]'
    """
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)
