/** Column helpers shared by every entity: random string ids and millisecond UTC timestamps. */
import { Column, ColumnOptions, PrimaryColumn } from 'typeorm';

export const ID_LENGTH = 32;

export function IdColumn(): PropertyDecorator {
  return PrimaryColumn({ type: 'varchar', length: ID_LENGTH });
}

export function RefColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'varchar', length: ID_LENGTH, ...options });
}

export function TimeColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'datetime', precision: 3, ...options });
}
