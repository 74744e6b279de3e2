/** Kysely table types; keep in step with sql/. */
import type { ColumnType, Generated } from 'kysely';
import type { Category, InteractiveState, PartIdMap } from '../catalog/types.js';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface CustomersTable {
  id: Generated<string>;
  name: string;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<string>;
  customer_id: string;
  environment: 'prod' | 'staging';
  prefix: string;
  key_hash: string;
  created_at: Timestamp;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

export interface PartsTable {
  id: string;
  category: Category;
  name: string;
  specs: Json<Record<string, unknown>>;
  raw: Json<unknown> | null;
  opendb_id: string | null;
  version: Generated<number>;
  image_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BuildsTable {
  share_code: string;
  name: string;
  description: Generated<string>;
  parts: Json<PartIdMap>;
  interactive_state: Json<InteractiveState> | null;
  created_at: Timestamp;
}

export interface SchemaMigrationsTable {
  version: string;
  applied_at: Timestamp;
}

export interface Database {
  customers: CustomersTable;
  api_keys: ApiKeysTable;
  parts: PartsTable;
  builds: BuildsTable;
  schema_migrations: SchemaMigrationsTable;
}
