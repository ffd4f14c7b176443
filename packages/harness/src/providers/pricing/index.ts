export { validateModelPricing, type ModelPricing } from './model-pricing.js';
export { priceUsage } from './price-usage.js';
