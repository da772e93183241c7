import { currencyOps } from '../../api/operations/currencies.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(currencyOps);
