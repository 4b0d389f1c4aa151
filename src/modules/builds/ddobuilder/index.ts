// The DDO Builder codec: Maetrim/DDOBuilderV2 character files (`.DDOBuild`, XML) to and from our
// build document. Pure: `fromDdoBuilder` reads a file into a planned build plus warnings for what
// the document cannot hold, `toDdoBuilder` writes a planned build back as a file the planner
// opens, and a file that cannot be read is a DdoBuilderFormatError (no HTTP here).
//
// The file format has no published schema: the element names (vocabulary.ts) are those of the
// planner's DL_* property macros and of real files (a full character among the project's
// fixtures, outside this repository; test/fixtures/*.DDOBuild follow its layout). Older files
// keep tomes, skill tomes and special feats on <Character>, newer ones on <Life>; both are read.
export type { DdoBuilderImport } from './document'
export { DdoBuilderFormatError } from './formatError'
export { type DdoBuilderFile, fromDdoBuilder, readDdoBuilder } from './read'
export type { DdoBuilderOutline, FileBuild, FileLife, FileQuest } from './readOutline'
export { plannerDifficulty } from './vocabulary'
export { type HistoryLife, type PlannerQuest, toDdoBuilder } from './write'
export { MAX_XML_CHARS, MAX_XML_TAGS } from './xml'
