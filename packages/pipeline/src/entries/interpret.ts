/**
 * `@assetloom/pipeline/interpret`: how a prompt is read — into a subject, colours, an action, a
 * scene, a time of day and weather (`interpret`), with the word lists and kinds it reads them by,
 * and the UI piece a prompt asks for (its kind, states, words and frame).
 *
 * @packageDocumentation
 */
export {
  ACTIONS,
  type Action,
  type BodyPlan,
  type ColorWord,
  configureLexicon,
  type Feature,
  glossColorOf,
  glossFeaturesOf,
  type Interpretation,
  type InterpretInput,
  interpret,
  isFemale,
  KINDS,
  type KindName,
  type KindSpec,
  kindSpec,
  type LexiconTexts,
  nounLemma,
  SCENE_NAMES,
  type Scene,
  sceneOf,
  sharedLexicon,
  subjectText,
  type TimeOfDay,
  type Token,
  tokenize,
  type Weather,
  type WordClass,
  wordClass,
} from '../interpret/index.js';
export { regularSingulars } from '../interpret/morph.js';
export {
  textBox,
  UI_STATES,
  UI_TEXT_PAD,
  type UiKind,
  type UiSymbol,
  type UiText,
  uiFrameSize,
  uiKindOf,
  uiSymbolOf,
  uiTextOf,
} from '../ui-spec.js';
