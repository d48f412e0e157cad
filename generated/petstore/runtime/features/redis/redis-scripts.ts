// The Lua scripts of the Redis session store (redis-sessions.ts). Each runs atomically in Redis, so two
// instances can neither both take the last session slot nor resurrect a session another just ended.

/**
 * Reads a session and marks it used. KEYS: the session's hash, the sessions sorted set. ARGV: id, now
 * (ms), idle timeout (ms). Returns the hash's fields, or nil (false) when the session is unknown or expired.
 */
export const USE_SCRIPT = `
local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return false
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return fields
`;

/**
 * Takes a slot for a session being initialized. KEYS: the sessions sorted set (score: last use, ms).
 * ARGV: id, now, idle timeout, the cap, the busy lease (ms), the session hash key prefix.
 * Forgets members idle past the timeout (their hashes have expired too); at the cap, evicts the least
 * recently used session if it has been idle longer than the lease (the store's notion of "idle": a busy
 * session is refreshed every third of the lease). Returns 1, the evicted id, or nil (false) when every
 * session is busy. The evicted hash is named from ARGV: a standalone Redis allows it, Redis Cluster would not.
 */
export const RESERVE_SCRIPT = `
local now = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - tonumber(ARGV[3])))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if tonumber(oldest[2]) > now - tonumber(ARGV[5]) then return false end
  redis.call('ZREM', KEYS[1], oldest[1])
  redis.call('DEL', ARGV[6] .. oldest[1])
  redis.call('ZADD', KEYS[1], now, ARGV[1])
  return oldest[1]
end
redis.call('ZADD', KEYS[1], now, ARGV[1])
return 1
`;
