// The output layer's API for commands: list writers, single records, raw JSON bodies, progress.
// Light at load time; cli-table3 is imported only when a table is drawn.
export { createListWriter, type ListWriter, type ListWriterOptions } from './list-writer';
export { writeRecord, writeJsonValue, writeEscapedText } from './record';
export { createProgress, type Progress } from './progress';
export { type ColumnSpec, type ColumnKind } from './columns';
export { BOOKING_COLUMNS } from './booking-columns';
export { drained, type OutputContext } from './sink';
