// Rules of the WhatsApp parser added for Pune and Bengaluru brokers (issue 18's third labelled set), each with the
// case it must not overreach into: a site visit is no plot, `24x7` no size, `Phase 2` no misspelt `Phase 1`.
import { describe, expect, test } from 'bun:test'
import { LocalityIndex, parsePaste } from '../../src/modules/intake/parse'

const index = new LocalityIndex([
  { name: 'HSR Layout', zone: 'South' },
  { name: 'BTM Layout', zone: 'South' },
  { name: 'Electronic City Phase 1', zone: 'South' },
  { name: 'Hinjewadi Phase 1', zone: 'West' },
  { name: 'Sinhagad Road', zone: 'South' },
  { name: 'Indiranagar', zone: 'East' },
  { name: 'Baner', zone: 'West' },
])
const one = (text: string) => {
  const drafts = parsePaste(text, index)
  expect(drafts).toHaveLength(1)
  return drafts[0]!
}

describe('sites and their sides', () => {
  test('a 30x40 site is a plot of 1,200 sq ft; 40 X 60 and 50*80 too', () => {
    expect(one('BDA site 30x40 for sale in HSR, 1.15 Cr')).toMatchObject({ property_type: 'Plot', size: 1200, budget: 11_500_000, locality: 'HSR Layout' })
    expect(one('Need 40 X 60 site, upto 2 Cr')).toMatchObject({ property_type: 'Plot', size: 2400, post_type: 'REQ' })
    expect(one('50*80 corner site avl, 5.5 Cr')).toMatchObject({ size: 4000 })
  })
  test('a site visit, water 24x7 and a 12x14 bedroom are none of it', () => {
    expect(parsePaste('Sir site visit done, client liked the flat', index)).toEqual([])
    expect(one('2BHK for rent in Baner, 25k, water 24x7')).toMatchObject({ property_type: '2 BHK', size: null })
    expect(one('3BHK avl Baner, master bedroom 12x14, 1.2 Cr')).toMatchObject({ size: null })
  })
  test('items under a heading of sites are plots', () => {
    const drafts = parsePaste('SITES REQUIRED\n1. HSR – 30x40 – upto 95 L\n2. BTM – 30x50 – around 1.35 Cr\nCall 97411 23456', index)
    expect(drafts.map((d) => [d.post_type, d.property_type, d.size, d.budget, d.locality])).toEqual([
      ['REQ', 'Plot', 1200, 9_500_000, 'HSR Layout'],
      ['REQ', 'Plot', 1500, 13_500_000, 'BTM Layout'],
    ])
  })
})

describe('Kannada and Marathi words', () => {
  test('beku is wanted, baadige rent, togollakke to buy, maratakke for sale', () => {
    expect(one('Indiranagar alli 1BHK baadige ge beku, 25k olage')).toMatchObject({ post_type: 'REQ', sale_or_rent: 'RENT', budget: 25_000, locality: 'Indiranagar' })
    expect(one('E city phase 1 alli 2BHK flat togollakke beku, budget 60-65 L')).toMatchObject({ post_type: 'REQ', sale_or_rent: 'SALE', budget: 6_500_000, locality: 'Electronic City Phase 1' })
    expect(one('3BHK maratakke Baner, 1.4 Cr')).toMatchObject({ post_type: 'AVL', sale_or_rent: 'SALE' })
  })
  test('hazar is a thousand, and te joins a range', () => {
    expect(one('Baner la 1BHK pahije bhadyane, budget 15 te 18 hazar')).toMatchObject({ post_type: 'REQ', budget: 18_000 })
  })
})

describe('a sale with a tenant', () => {
  test('pre-leased is a sale, and its rent is what the buyer earns, not the price', () => {
    expect(one('Pre-leased office for sale in Baner, 1800 carpet, rental 1.6 L, asking 3.2 Cr')).toMatchObject({ sale_or_rent: 'SALE', budget: 32_000_000 })
    expect(one('Independent house for sale, rental income 35k. Price 1.45 Cr')).toMatchObject({ budget: 14_500_000 })
  })
  test('a rent listing keeps its rent', () => {
    expect(one('2BHK for rent in Baner, rental 28k')).toMatchObject({ sale_or_rent: 'RENT', budget: 28_000 })
  })
})

describe('localities written short', () => {
  test('HSR, BTM 2nd stage, e city, E-city ph1: a first word that says enough, a first word cut to its letter', () => {
    expect(one('2bhk in hsr sector 7 for rent 35k')).toMatchObject({ locality: 'HSR Layout' })
    expect(one('1 RK for rent BTM 1st stage 8.5k')).toMatchObject({ locality: 'BTM Layout' })
    expect(one('Require 1 BHK near Infosys e city, budget 14k')).toMatchObject({ locality: 'Electronic City Phase 1' })
    expect(one('E-city ph1 1bhk chahiye 12-13k')).toMatchObject({ locality: 'Electronic City Phase 1', budget: 13_000 })
  })
  test('a typo in the name with its suffix or number after it; never a typo in the number', () => {
    expect(one('2BHK on rent near Hinjewdi ph 1, 22k')).toMatchObject({ locality: 'Hinjewadi Phase 1' })
    expect(one('2BHK for sale on Sinhgad road, 70L')).toMatchObject({ locality: 'Sinhagad Road' })
    expect(one('2BHK on rent Hinjewadi phase 2, 22k').locality).not.toBe('Hinjewadi Phase 1')
    // A first word last in the message, or followed by its name's own words, is the name.
    expect(one('Req 2BHK on rent 22k, Hinjewadi')).toMatchObject({ locality: 'Hinjewadi Phase 1' })
    expect(one('Req 2BHK on rent 22k, Hinjewadi phase 1')).toMatchObject({ locality: 'Hinjewadi Phase 1' })
  })
  test('the number after a label is no configuration: sector 1, 3BHK is a 3 BHK', () => {
    expect(one('HSR Layout sector 1, 3BHK for sale, 1750 SBA, 2.1 Cr')).toMatchObject({ property_type: '3 BHK', size: 1750 })
    expect(one('Req 2, 3 BHK in Baner, 1.2 Cr')).toMatchObject({ property_type: '2 BHK' })
  })
})

describe('localities written as initials', () => {
  const pune = new LocalityIndex([
    { name: 'Koregaon Park', zone: 'Central' },
    { name: 'Pimple Gurav', zone: 'West' },
    { name: 'Bandra Kurla Complex', zone: 'West' },
    { name: 'Kalyani Nagar', zone: 'East' },
    { name: 'Kharadi', zone: 'East' },
    { name: 'Andheri West', zone: 'West' },
  ])
  const first = (text: string) => parsePaste(text, pune)[0]!
  test('KP and BKC in capitals name the one locality with those initials', () => {
    expect(first('Penthouse for sale at KP, 3200 sq ft, 6.5 Cr')).toMatchObject({ locality: 'Koregaon Park' })
    expect(first('Office avl BKC 2000 sqft rent 4 L')).toMatchObject({ locality: 'Bandra Kurla Complex' })
  })
  test('not in lower case, not when a name is written, not PG or OC, not initials two localities share', () => {
    expect(first('2bhk avl kp 40k').locality).not.toBe('Koregaon Park')
    expect(first('KP type flat avl in Kharadi 30k').locality).toBe('Kharadi')
    expect(first('PG avl for girls, 9k, call 9822012345').locality).not.toBe('Pimple Gurav')
    expect(first('2BHK for sale, OC received, 95 L').locality).toBeNull()
    const shared = new LocalityIndex([{ name: 'Koregaon Park', zone: null }, { name: 'Kalyani Park', zone: null }])
    expect(parsePaste('3BHK for rent at KP, 60k', shared)[0]!.locality).not.toBe('Koregaon Park')
    expect(first('2BHK avl Andheri W 50k').locality).toBe('Andheri West')
    expect(parsePaste('Need 1BHK AW 30k', pune)[0]!.locality).not.toBe('Andheri West')
  })
  test('in a message all in capitals too, but never a word of the sentence', () => {
    expect(first('AVL 3BHK FOR RENT AT KP, FAMILY ONLY, 60K')).toMatchObject({ locality: 'Koregaon Park' })
    const best = new LocalityIndex([{ name: 'Baner Evergreen Shanti Towers', zone: null }])
    expect(parsePaste('BEST DEAL 2BHK FOR SALE 80L CALL 9822012345', best)[0]!.locality).toBeNull()
  })
})

describe('a place the network does not know, as written', () => {
  const empty = new LocalityIndex([])
  const place = (text: string) => parsePaste(text, empty)[0]!.locality
  test('initials stay in capitals and take their suffix: BKC, MG Road, DN Nagar; a name keeps its Road', () => {
    expect(place('Need office in BKC 2000 sqft upto 5 L rent')).toBe('BKC')
    expect(place('Avl 2bhk near MG Road 30k')).toBe('MG Road')
    expect(place('Avl shop near DN Nagar 50k')).toBe('DN Nagar')
    expect(place('Avl showroom on rent at Linking Road 3 L')).toBe('Linking Road')
  })
  test('a message all in capitals is title case: KHAR WEST is Khar West, not initials', () => {
    expect(place('AVL 2BHK AT KHAR WEST 60K')).toBe('Khar West')
    expect(place('REQ 1BHK IN NAVI MUMBAI 20K')).toBe('Navi Mumbai')
  })
  test('upto, max and within are read with the budget, not left unparsed', () => {
    expect(parsePaste('Need office in Powai 2000 sqft upto 5 L rent', empty)[0]!.unparsed).toEqual([])
    expect(parsePaste('Req 1bhk in Powai max 20k', empty)[0]!.unparsed).toEqual([])
  })
})
