// The optical equipment of the manual scraping result (issue 15): class, frame, and a lens per eye, as the robot's
// `equipement_optique`. Inside the callback form (react-admin Form + the shared zod schema of domain/pec.ts),
// which checks every value as the server does (−30..+30 by 0,25 for the sphere, 7-digit LPP codes, prices...).
import { Box, Typography } from '@mui/material';
import { SelectInput, TextInput, useTranslate } from 'react-admin';
import { EYE_LABELS, EYES, LENS_TYPE_LABELS, LENS_TYPES, OPTICAL_CLASSES, type Eye } from '#domain/optical';

const ROOT = 'equipement_optique';
const LENS_FIELDS = ['sphere', 'cylindre', 'axe', 'addition', 'indice', 'traitements', 'prix', 'code_lpp'] as const;

/** The form's first values: every field empty (an equipment left empty is not sent as one). */
export function opticalFormValues() {
  const lens = () => ({ type: '', ...Object.fromEntries(LENS_FIELDS.map((f) => [f, ''])) });
  return { classe: '', monture: { marque: '', modele: '', prix: '', code_lpp: '' }, verres: { OD: lens(), OG: lens() } };
}

const grid = { display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 } as const;

export function OpticalEquipmentFields({ disabled }: { disabled: boolean }) {
  const translate = useTranslate();
  const common = (source: string, label: string) => ({
    source: `${ROOT}.${source}`,
    label,
    disabled,
    fullWidth: true,
    size: 'small' as const,
    margin: 'none' as const,
    inputProps: { 'data-field': `${ROOT}.${source}` },
  });
  const price = (source: string) => (
    <TextInput
      {...common(source, translate('pecflow.pec.optical.price'))}
      placeholder="1 450,50"
      inputProps={{ 'data-field': `${ROOT}.${source}`, inputMode: 'decimal' }}
    />
  );
  const lensLabels: Record<(typeof LENS_FIELDS)[number], string> = {
    sphere: translate('pecflow.pec.optical.sphere'),
    cylindre: translate('pecflow.pec.optical.cylindre'),
    axe: translate('pecflow.pec.optical.axe'),
    addition: translate('pecflow.pec.optical.addition'),
    indice: translate('pecflow.pec.optical.indice'),
    traitements: translate('pecflow.pec.optical.traitements'),
    prix: translate('pecflow.pec.optical.price'),
    code_lpp: translate('pecflow.pec.optical.lpp'),
  };
  const lens = (eye: Eye) => (
    <Box key={eye} data-testid={`optical-form-${eye}`}>
      <Typography variant="body2" fontWeight={700} sx={{ mb: 1 }}>
        {EYE_LABELS[eye]}
      </Typography>
      <Box sx={grid}>
        <SelectInput
          {...common(`verres.${eye}.type`, translate('pecflow.pec.optical.lensType'))}
          choices={LENS_TYPES.map((t) => ({ id: t, name: LENS_TYPE_LABELS[t] }))}
          emptyText="pecflow.pec.manual.unknown"
        />
        {LENS_FIELDS.map((field) =>
          field === 'prix' ? (
            <Box key={field}>{price(`verres.${eye}.prix`)}</Box>
          ) : (
            <TextInput
              key={field}
              {...common(`verres.${eye}.${field}`, lensLabels[field])}
              helperText={
                field === 'traitements'
                  ? translate('pecflow.pec.optical.form.traitementsHelp')
                  : field === 'sphere'
                    ? translate('pecflow.pec.optical.form.sphereHelp')
                    : undefined
              }
            />
          ),
        )}
      </Box>
    </Box>
  );

  return (
    <Box data-testid="optical-form">
      <Box sx={{ ...grid, mb: 2 }}>
        <SelectInput
          {...common('classe', translate('pecflow.pec.optical.form.classe'))}
          choices={OPTICAL_CLASSES.map((c) => ({
            id: c,
            name: `${translate('pecflow.pec.optical.classValue', { classe: c })} · ${translate(`pecflow.pec.optical.classHint.${c}`)}`,
          }))}
          emptyText="pecflow.pec.manual.unknown"
        />
      </Box>
      <Typography variant="body2" fontWeight={700} sx={{ mb: 1 }}>
        {translate('pecflow.pec.optical.form.frame')}
      </Typography>
      <Box sx={{ ...grid, mb: 2 }}>
        <TextInput {...common('monture.marque', translate('pecflow.pec.optical.marque'))} />
        <TextInput {...common('monture.modele', translate('pecflow.pec.optical.modele'))} />
        {price('monture.prix')}
        <TextInput {...common('monture.code_lpp', translate('pecflow.pec.optical.lpp'))} />
      </Box>
      {EYES.map(lens)}
    </Box>
  );
}
