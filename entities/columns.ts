/**
 * Column helpers shared by every entity: random string ids and millisecond UTC timestamps. Ids are
 * case-sensitive random strings, so they are stored and compared byte for byte (utf8mb4_bin), never
 * with the database's case- and accent-insensitive default collation.
 */
import { Column, ColumnOptions, PrimaryColumn } from 'typeorm';

export const ID_LENGTH = 32;
const ID_COLLATION = 'utf8mb4_bin';

export function IdColumn(): PropertyDecorator {
  return PrimaryColumn({ type: 'varchar', length: ID_LENGTH, collation: ID_COLLATION });
}

export function RefColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'varchar', length: ID_LENGTH, collation: ID_COLLATION, ...options });
}

export function TimeColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'datetime', precision: 3, ...options });
}
