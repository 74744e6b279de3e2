/**
 * The one shape of the ids PostgreSQL makes (jobs, webhooks, deliveries: gen_random_uuid) and
 * of OpenDB's: a UUID, any case. A string that is not one names nothing, so callers answer
 * "not found" or a usage error without asking the database (which would refuse to cast it).
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
