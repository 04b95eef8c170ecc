/** Content languages a space (and later a translation) may declare: ISO 639-1 codes plus regional variants in use. */
export const LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ja', 'zh', 'zh-tw', 'ko', 'nl', 'ru', 'pl', 'sv', 'da', 'fi', 'no',
  'tr', 'cs', 'uk', 'ar', 'he', 'hi', 'id', 'vi', 'th', 'el', 'hu', 'ro',
  // the rest of GitBook's TranslationLanguage
  'yue', 'ms', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';
