// An optician's file's equipment in the drawer's results (issue 15): the 100 % Santé class, the frame, and a lens per
// eye (OD / OG) with its correction in the French way (−2,25 ; indice 1,6 ; prices in euros). Never ears.
import { Box, Chip, Paper, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatEuros } from '#domain/format';
import { EYE_LABELS, EYES, formatDioptres, formatIndex, LENS_TYPE_LABELS, type EquipementOptique, type Eye, type Lens } from '#domain/optical';
import { Facts } from './RobotResults';

function LensCard({ eye, lens }: { eye: Eye; lens: Lens | null }) {
  const translate = useTranslate();
  const none = translate('pecflow.pec.fallback.value');
  return (
    <Paper variant="outlined" sx={{ p: 1.5, flex: 1, minWidth: 0 }} data-testid={`lens-${eye}`}>
      <Typography variant="overline" color="text.secondary" component="div">
        {EYE_LABELS[eye]}
      </Typography>
      {!lens ? (
        <Typography variant="body2" color="text.secondary">
          {translate('pecflow.pec.optical.noLens')}
        </Typography>
      ) : (
        <>
          <Typography variant="body1" fontWeight={700} sx={{ mb: 1 }}>
            {LENS_TYPE_LABELS[lens.type] ?? lens.type}
          </Typography>
          <Facts
            items={[
              [translate('pecflow.pec.optical.sphere'), formatDioptres(lens.sphere, none)],
              [translate('pecflow.pec.optical.cylindre'), formatDioptres(lens.cylindre, none)],
              [translate('pecflow.pec.optical.axe'), lens.axe === null ? none : `${lens.axe}°`],
              [translate('pecflow.pec.optical.addition'), formatDioptres(lens.addition, none)],
              [translate('pecflow.pec.optical.indice'), formatIndex(lens.indice, none)],
              [translate('pecflow.pec.optical.traitements'), lens.traitements.length ? lens.traitements.join(', ') : none],
              [translate('pecflow.pec.optical.price'), formatEuros(lens.prix)],
              [translate('pecflow.pec.optical.lpp'), lens.codeLpp || none],
            ]}
          />
        </>
      )}
    </Paper>
  );
}

export function OpticalEquipmentView({ equipment }: { equipment: EquipementOptique | null | undefined }) {
  const translate = useTranslate();
  const none = translate('pecflow.pec.fallback.value');
  return (
    <Box data-testid="optical-equipment">
      <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 1 }} flexWrap="wrap" useFlexGap>
        <Typography variant="body2" fontWeight={700}>
          {translate('pecflow.pec.optical.title')}
        </Typography>
        {equipment?.classe && (
          <Chip
            size="small"
            color={equipment.classe === 'A' ? 'success' : 'default'}
            variant="outlined"
            label={`${translate('pecflow.pec.optical.classValue', { classe: equipment.classe })} · ${translate(`pecflow.pec.optical.classHint.${equipment.classe}`)}`}
            data-testid="optical-class"
          />
        )}
      </Stack>
      {!equipment ? (
        <Typography variant="body2" color="text.secondary">
          {translate('pecflow.pec.optical.none')}
        </Typography>
      ) : (
        <Stack spacing={1.5}>
          <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="optical-frame">
            <Typography variant="overline" color="text.secondary" component="div">
              {translate('pecflow.pec.optical.frame')}
            </Typography>
            <Typography variant="body1" fontWeight={700} sx={{ mb: 1 }}>
              {[equipment.monture.marque, equipment.monture.modele].filter(Boolean).join(' ') || none}
            </Typography>
            <Facts
              items={[
                [translate('pecflow.pec.optical.price'), formatEuros(equipment.monture.prix)],
                [translate('pecflow.pec.optical.lpp'), equipment.monture.codeLpp || none],
              ]}
            />
          </Paper>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            {EYES.map((eye) => (
              <LensCard key={eye} eye={eye} lens={equipment.verres[eye]} />
            ))}
          </Stack>
        </Stack>
      )}
    </Box>
  );
}
