// Demo geography: real places, so the demo reads like a real network.
// State codes follow ISO 3166-2 (country prefix included) because states.code is unique across all countries.

export type DemoCity = { name: string; newsco_region?: string }
export type DemoState = { name: string; code: string; cities: DemoCity[] }
export type DemoCountry = { name: string; code: string; states: DemoState[] }

export const DEMO_GEOGRAPHY: readonly DemoCountry[] = [
  {
    name: 'India',
    code: 'IN',
    states: [
      {
        name: 'Maharashtra',
        code: 'IN-MH',
        cities: [
          { name: 'Mumbai', newsco_region: 'West' },
          { name: 'Pune', newsco_region: 'West' },
          { name: 'Nagpur', newsco_region: 'Central' },
          { name: 'Thane', newsco_region: 'West' },
        ],
      },
      {
        name: 'Karnataka',
        code: 'IN-KA',
        cities: [{ name: 'Bengaluru', newsco_region: 'South' }, { name: 'Mysuru', newsco_region: 'South' }, { name: 'Mangaluru' }],
      },
      { name: 'Delhi', code: 'IN-DL', cities: [{ name: 'New Delhi', newsco_region: 'NCR' }] },
      {
        name: 'Tamil Nadu',
        code: 'IN-TN',
        cities: [{ name: 'Chennai', newsco_region: 'South' }, { name: 'Coimbatore', newsco_region: 'South' }, { name: 'Madurai' }],
      },
      { name: 'Telangana', code: 'IN-TG', cities: [{ name: 'Hyderabad', newsco_region: 'South' }, { name: 'Warangal' }] },
      {
        name: 'Gujarat',
        code: 'IN-GJ',
        cities: [{ name: 'Ahmedabad', newsco_region: 'West' }, { name: 'Surat', newsco_region: 'West' }, { name: 'Vadodara' }],
      },
      { name: 'West Bengal', code: 'IN-WB', cities: [{ name: 'Kolkata', newsco_region: 'East' }, { name: 'Siliguri' }] },
      // The Tricity around Chandigarh (issue 30): cities the demo network has no listings in yet, as a new city's
      // brokers find it; their places are read by their shape (Sector 82, Phase 7, Block H) until its admin adds them.
      { name: 'Punjab', code: 'IN-PB', cities: [{ name: 'Mohali', newsco_region: 'North' }, { name: 'Zirakpur', newsco_region: 'North' }] },
      { name: 'Chandigarh', code: 'IN-CH', cities: [{ name: 'Chandigarh', newsco_region: 'North' }] },
      { name: 'Haryana', code: 'IN-HR', cities: [{ name: 'Panchkula', newsco_region: 'North' }] },
    ],
  },
  {
    name: 'United States',
    code: 'US',
    states: [
      {
        name: 'New York',
        code: 'US-NY',
        cities: [{ name: 'New York', newsco_region: 'Northeast' }, { name: 'Buffalo' }, { name: 'Rochester' }],
      },
      {
        name: 'California',
        code: 'US-CA',
        cities: [
          { name: 'Los Angeles', newsco_region: 'West Coast' },
          { name: 'San Francisco', newsco_region: 'Bay Area' },
          { name: 'San Diego', newsco_region: 'West Coast' },
        ],
      },
      { name: 'Texas', code: 'US-TX', cities: [{ name: 'Houston', newsco_region: 'South' }, { name: 'Austin' }, { name: 'Dallas' }] },
      { name: 'Florida', code: 'US-FL', cities: [{ name: 'Miami', newsco_region: 'Southeast' }, { name: 'Orlando' }, { name: 'Tampa' }] },
      { name: 'Illinois', code: 'US-IL', cities: [{ name: 'Chicago', newsco_region: 'Midwest' }, { name: 'Springfield' }] },
    ],
  },
  {
    name: 'United Kingdom',
    code: 'GB',
    states: [
      {
        name: 'England',
        code: 'GB-ENG',
        cities: [
          { name: 'London', newsco_region: 'Greater London' },
          { name: 'Manchester', newsco_region: 'North West' },
          { name: 'Birmingham', newsco_region: 'Midlands' },
          { name: 'Leeds' },
        ],
      },
      { name: 'Scotland', code: 'GB-SCT', cities: [{ name: 'Edinburgh', newsco_region: 'Scotland' }, { name: 'Glasgow', newsco_region: 'Scotland' }] },
      { name: 'Wales', code: 'GB-WLS', cities: [{ name: 'Cardiff', newsco_region: 'Wales' }, { name: 'Swansea' }] },
    ],
  },
  {
    name: 'United Arab Emirates',
    code: 'AE',
    states: [
      { name: 'Dubai', code: 'AE-DU', cities: [{ name: 'Dubai', newsco_region: 'Gulf' }, { name: 'Hatta' }] },
      { name: 'Abu Dhabi', code: 'AE-AZ', cities: [{ name: 'Abu Dhabi', newsco_region: 'Gulf' }, { name: 'Al Ain' }] },
      { name: 'Sharjah', code: 'AE-SH', cities: [{ name: 'Sharjah', newsco_region: 'Gulf' }, { name: 'Khor Fakkan' }] },
    ],
  },
]
