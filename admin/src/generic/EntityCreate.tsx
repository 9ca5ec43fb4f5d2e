import { Create, SimpleForm, Toolbar } from 'react-admin';
import { useEntity } from './useEntity';
import { defaultsOf } from './inputs';
import { FormBody } from './FormBody';
import { FormSaveButton } from './FormSaveButton';
import { InvalidFormNotice } from './InvalidFormNotice';

/** A new row's form, in the metadata's sections, with its fields' defaults. */
export function EntityCreate() {
  const e = useEntity();
  return (
    <Create redirect="list">
      <SimpleForm
        defaultValues={defaultsOf(e)}
        toolbar={
          <Toolbar>
            <FormSaveButton entity={e} />
          </Toolbar>
        }
        data-testid="entity-form"
        disableInvalidFormNotification
      >
        <InvalidFormNotice />
        <FormBody entity={e} mode="create" />
      </SimpleForm>
    </Create>
  );
}
