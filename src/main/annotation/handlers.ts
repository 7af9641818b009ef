// The annotation methods of the API table (src/shared/api/annotation-methods.ts), wired to the service.
import type { HandlersOf } from '../../shared/api';
import type { annotationMethods } from '../../shared/api/annotation-methods';
import type { Database } from '../store/db';
import { agreementZip } from './export';
import { experimentTasks, leastSureOf } from './ratings';
import type { AnnotationService } from './service';

export function annotationHandlers(
  db: Database,
  a: AnnotationService,
): HandlersOf<keyof typeof annotationMethods> {
  return {
    'annotation.createSet': (p) => a.create(p),
    'annotation.leastSure': ({ experimentId, ...opts }) => leastSureOf(db, experimentId, opts),
    'annotation.tasks': ({ experimentId }) => ({ tasks: experimentTasks(db, experimentId) }),
    'annotation.guidelines': ({ setId }) => a.guidelines(setId),
    'annotation.setGuidelines': ({ setId, text }) => a.setGuidelines(setId, text),
    'annotation.disagreements': ({ setId }) => a.disagreements(setId),
    'annotation.adjudicate': (p) => a.adjudicate(p),
    'annotation.listSets': ({ experimentId }) => a.list(experimentId),
    'annotation.getSet': ({ setId }) => a.get(setId),
    'annotation.deleteSet': ({ setId }) => a.delete(setId),
    'annotation.annotators': () => a.annotators(),
    'annotation.createAnnotator': ({ name }) => a.createAnnotator(name),
    'annotation.session': ({ setId, annotator }) => a.session(setId, annotator),
    'annotation.label': (p) => a.label(p),
    'annotation.importLabels': ({ setId, fileName, contentBase64 }) =>
      a.importLabels({ setId, fileName, bytes: Buffer.from(contentBase64, 'base64') }),
    'annotation.exportPackage': ({ setId }) => a.exportPackage(setId),
    'annotation.labelTemplate': ({ setId, annotator }) => a.labelTemplate(setId, annotator),
    'annotation.importPackage': ({ fileName, contentBase64, asNewSet, intoSetId, takePackageLabels }) =>
      a.importPackage(fileName, Buffer.from(contentBase64, 'base64'), {
        asNewSet,
        intoSetId,
        takePackageLabels,
      }),
    'annotation.agreement': ({ setId, threshold, epsilon }) => a.agreement(setId, threshold, epsilon),
    'annotation.exportZip': ({ setId, threshold, epsilon, lang }) =>
      agreementZip(db, a, setId, threshold, lang, epsilon),
    'annotation.mappingTargets': ({ setId, judge }) => a.mappingTargets(setId, judge),
    'annotation.applyMapping': (p) => a.applyMapping(p),
  };
}
