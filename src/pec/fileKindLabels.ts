// The words of the scraping step follow the file's kind (issue 15): devices, an optical equipment, or the patient only.
import type { FileKind } from '#domain/fileKinds';

/** i18n keys of the robot's first step in the actions tab. */
export const SCRAPING_STEP_LABELS: Record<FileKind, string> = {
  audio: 'pecflow.pec.steps.scraping',
  optical: 'pecflow.pec.steps.scrapingOptical',
  generic: 'pecflow.pec.steps.scrapingGeneric',
};

/** i18n keys of the manual scraping result's tab. */
export const SCRAPING_TAB_LABELS: Record<FileKind, string> = {
  audio: 'pecflow.pec.manual.types.scraping',
  optical: 'pecflow.pec.manual.types.scrapingOptical',
  generic: 'pecflow.pec.manual.types.scrapingGeneric',
};
