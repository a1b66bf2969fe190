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
    expect(one('2BHK for rent in Baner, 25k, water 24x7')).toMatchObject({ property_type: '2 BHK Apartment', size: null })
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
    expect(one('HSR Layout sector 1, 3BHK for sale, 1750 SBA, 2.1 Cr')).toMatchObject({ property_type: '3 BHK Apartment', size: 1750 })
    expect(one('Req 2, 3 BHK in Baner, 1.2 Cr')).toMatchObject({ property_type: '2 BHK Apartment' })
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

// Rules for real broker text (issue 30): Tricity groups (Mohali, Chandigarh, Panchkula, Zirakpur) and Bengaluru posts.
// Each with the case it must not overreach into.
describe('real broker text (issue 30)', () => {
  const mohali = new LocalityIndex([], 'Mohali')
  const all = (text: string, index = mohali) => parsePaste(text, index)
  const only = (text: string, index = mohali) => {
    const drafts = parsePaste(text, index)
    expect(drafts).toHaveLength(1)
    return drafts[0]!
  }

  test('one fact per line with blank lines between is one listing; a block opening with Avl / Wanted is another', () => {
    expect(only('Available for Rent\n\n\nSECTOR 82A\n\n\n3+1BHK\n\n\n75K\n\n\n2601SQFT\n\n\n9999900001')).toMatchObject({
      post_type: 'AVL',
      sale_or_rent: 'RENT',
      property_type: '3 BHK Apartment',
      budget: 75_000,
      size: 2601,
      locality: 'Sector 82A',
      contact_value: '+91 99999 00001',
    })
    const two = all('Wanted 1 kanal plot Sector 69\n\nAvailable 2 kanal land Block H\n\n9999900001')
    expect(two.map((d) => [d.post_type, d.size, d.locality, d.contact_value])).toEqual([
      ['REQ', 4500, 'Sector 69', '+91 99999 00001'],
      ['AVL', 9000, 'Block H', '+91 99999 00001'],
    ])
  })

  test('a second value of what a listing has opens the next: another size, type or sector; a plot and its built-up area do not', () => {
    const three = all('INDUSTRIAL PLOTS PHASE 7\n\n300gaz built-up\n\n500gaz corner\n\n2kanal B road\n\nCall 9999900002')
    expect(three.map((d) => [d.property_type, d.size, d.locality])).toEqual([
      ['Plot', 2700, 'Phase 7'],
      ['Plot', 4500, 'Phase 7'],
      ['Plot', 9000, 'Phase 7'],
    ])
    const houses = all('House for sale\n\nSec-15\n\n10marla\n\nSingle storey\n\nSec-21\n\n14marla\n\nDouble storey\n\n9999900002')
    expect(houses.map((d) => [d.property_type, d.size, d.locality])).toEqual([
      ['Independent House', 2250, 'Sector 15'],
      ['Independent House', 3150, 'Sector 21'],
    ])
    expect(only('AVAILABLE BUILDING FOR RENT\n\nSECTOR 82\n\n500 SQ YRDS\n\nBASEMENT + 2 STORY\n\nAPPROX 8100 SQ FEET AREA\n\n9999900002')).toMatchObject({ property_type: 'Building', size: 4500 })
    // Another size: the project's name before it goes with it (`ROSERO ELENA ZIRAKPUR`), where the first has its own.
    const projects = all('Flats Available For Sale\n\nPINNACLE SECTOR 83\n\n3BHK\n\n2300 SQFT\n\nRERA APPROVED\n\nROSERO ELENA ZIRAKPUR\n\n3 BHK\n\n1954 SQ FT\n\n9999900002')
    expect(projects.map((d) => [d.size, d.locality])).toEqual([
      [2300, 'Sector 83'],
      [1954, 'Rosero Elena Zirakpur'],
    ])
    // Another configuration, under a shared heading.
    const configs = all('*Regalia Tower*\n\n(2+1bhk) flat\nSize 1153 sq feet\nBsp=41.90 lakh only\n\n(3bhk) flat\nSize 1731 sq feet\nBsp=66.90 lakh only\n\n9999900002')
    expect(configs.map((d) => [d.property_type, d.size, d.budget, d.locality])).toEqual([
      ['2 BHK Apartment', 1153, 4_190_000, 'Regalia Tower'],
      ['3 BHK Apartment', 1731, 6_690_000, 'Regalia Tower'],
    ])
  })

  test('a requirement lists what the client accepts: one listing', () => {
    expect(only('WANTED PLOT\n\nSector 120\n\n100 - 130 - 150 Sq.yrd.\n\nPhase 1\n\nPhase 2\n\n9999900003')).toMatchObject({ post_type: 'REQ', size: 1350, locality: 'Sector 120' })
  })

  test('N+1 BHK is its leading count, never 1 BHK nor an amount; G+3 and 2+1 parking are none', () => {
    expect(only('Flat for sale Sector 88 3+1BHK 2650 sqft 9999900004')).toMatchObject({ property_type: '3 BHK Apartment', budget: null })
    expect(only('FLAT FOR SALE\nREADY TO MOVE\n4+1 SEMI FURNISHED\nJLPL FALCON\n9999900004')).toMatchObject({ property_type: '4 BHK Apartment', budget: null })
    expect(only('(2+1bhk) flat 1153 sq feet Bsp=41.90 lakh only')).toMatchObject({ property_type: '2 BHK Apartment', budget: 4_190_000 })
    expect(only('Kothi for sale Phase 7 G+3 2+1 parking 9999900004').property_type).toBe('Independent House')
  })

  test('chat times, sector and project numbers are no amounts; a price word makes a bare number one', () => {
    expect(only('Plot for sale Medallion 82 Sector 82 300 gaj 9999900005')).toMatchObject({ budget: null, sale_or_rent: 'SALE' })
    expect(all('Meeting at 5 pm today at the office')).toEqual([])
    expect(only('Kothi for sale Phase 4 6 marla demand 2.10 Cr 9999900005').budget).toBe(21_000_000)
    expect(only('2bhk for rent Sector 70 45k pm 9999900005')).toMatchObject({ sale_or_rent: 'RENT', budget: 45_000 })
  })

  test('WhatsApp Web headers, time first, and the sender repeated; the body’s number before the header’s', () => {
    const drafts = all('[2:06 pm, 17/6/2025] +91 99999 00006: +91 99999 00006: Plot for sale\nSector 91\n10 marla\n[2:10 pm, 17/6/2025] +91 99999 00007: Wanted 2bhk Sector 70\nCall 9999900008')
    expect(drafts.map((d) => [d.post_type, d.contact_value, d.details.startsWith('Plot') || d.details.startsWith('Wanted')])).toEqual([
      ['AVL', '+91 99999 00006', true],
      ['REQ', '+91 99999 00008', true],
    ])
  })

  test('kothi, booth, SCO and LOI are property types; a guest house, a head office and a firm’s SCO in its address are not', () => {
    expect(only('Kothi for sale Sector 70 1 kanal 9999900009').property_type).toBe('Independent House')
    expect(only('Booth for sale Sector 71 9999900009').property_type).toBe('Retail Shop')
    expect(only('SCO for rent Sector 67 ground floor 9999900009').property_type).toBe('SCO')
    expect(only('Residential LOI Aerotropolis 300 gaj @2.45 9999900009')).toMatchObject({ property_type: 'Plot', budget: 24_500_000 })
    expect(only('Land for sale 2 acre, best suited for guest house, 9999900009').property_type).toBe('Land')
    expect(only('JLPL Sector 82\n1 kanal\nDemand 5.75\nCA PROPERTIES\nSCO19, FF, SECTOR 96A\n9999900009')).toMatchObject({ property_type: null, locality: 'Sector 82', budget: 57_500_000 })
  })

  test('marla, kanal, gaj and square yards are sizes, not money; a frontage in feet and an 11 ft ceiling are no area', () => {
    expect(only('Plot 8 marla Sector 68 9999900010')).toMatchObject({ size: 1800, budget: null })
    expect(only('AVAILABLE KANAL KOTHI SECTOR 8 9999900010').size).toBe(4500)
    expect(only('Kothi 152 SYs Aerocity 9999900010').size).toBe(1368)
    expect(only('Plot 125 𝒈𝒂𝒛 Aerocity 9999900010').size).toBe(1125)
    expect(only('Land for sale, Front: 180 Feet, 9999900010').size).toBeNull()
    expect(only('Villa for sale, 11 ft ceiling, 9999900010').size).toBeNull()
  })

  test('bare amounts as Tricity brokers mean them; a rent’s bare figure stays thousands', () => {
    expect(only('Plot 1 kanal Sector 82 Demand 5.75 9999900011').budget).toBe(57_500_000)
    expect(only('Residential LOI 150 Sq Yds @146.50 9999900011').budget).toBe(14_650_000)
    expect(only('MIG Flat Phase 11 Ask Price .70Lakh 9999900011')).toMatchObject({ sale_or_rent: 'SALE', budget: 7_000_000 })
    expect(only('Aerotropolis LOI D100 Rate 113.Cr 9999900011').budget).toBe(11_300_000)
    expect(only('1000 sq yds plot Sector 83 @10.25 9999900011').budget).toBe(102_500_000)
    expect(only('Bhai 1bhk chahiye Phase 5, budget 25 tak, family hai')).toMatchObject({ sale_or_rent: 'RENT', budget: 25_000 })
  })

  test('rates per gaj, allotment, booking, white, balance, deposits and income are not the price; a rate beside the rent is', () => {
    for (const text of ['Plot 187 Gaj Aerovista Asking price 90K/Gaj', 'THE MARQ 3000 SQFT B BLOCK AEROCITY 27 LAKH BOOKING ALLOTMENT 9200', 'LOI 200 Sq Yds White 75 Lacs', 'SECTOR 83 AVAILABLE BALANCE- @45 1 KANAL', 'Flat for sale Homeland 2000 sq ft Rental Income: ₹90,000/month'])
      expect(only(`${text}\n9999900012`).budget).toBeNull()
    expect(only('Available 64 sqyd house Shahi majra\nRent 50K\nRate 95 lakh\n9999900012')).toMatchObject({ sale_or_rent: 'SALE', budget: 9_500_000 })
    expect(only('Office for rent Sector 67 1200 sqft rent 60k lock in 3 years 9999900012')).toMatchObject({ sale_or_rent: 'RENT', budget: 60_000 })
  })

  test('sectors, phases and blocks are read by their shape; a landmark block, a road class and an article are not', () => {
    const place = (text: string) => only(`${text} plot 200 gaj 9999900013`).locality
    expect(place('Sec 66A')).toBe('Sector 66A')
    expect(place('67 sec Mohali')).toBe('Sector 67')
    expect(place('Sec 82 Alpha')).toBe('Sector 82 Alpha')
    expect(place('PHASE-8A')).toBe('Phase 8A')
    expect(place('Phase 3B2')).toBe('Phase 3B2')
    expect(place('E block Aerocity')).toBe('E Block Aerocity')
    expect(place('Block H.')).toBe('Block H')
    expect(place('Sec-15 B-Road')).toBe('Sector 15')
    expect(place('MOTIA AEROGREENS, ADJ.- I BLOCK AEROCITY')).toBe('Motia Aerogreens')
    expect(only('Villa available, a block of four villas, 9999900013').locality).toBeNull()
  })

  test('a line that is only a name is the project; the city alone is no locality, another city is', () => {
    expect(only('Rent Available\n\nMarbella flat\n\n2600 sq ft\n\nChandigarh Developers\n\n9999900014').locality).toBe('Marbella')
    expect(only('Wanted 6 Marla kothi in Mohali, call 9999900014').locality).toBeNull()
    expect(only('Hotel for sale in Chandigarh @ 35 cr only, 9999900014').locality).toBe('Chandigarh')
    expect(only('Available D-200 Residential Aerotropolis Mohali. Contact 9999900014').locality).toBe('Aerotropolis')
  })

  test('several listings in one post: numbered, one a line, blocks; the heading and the signature are shared', () => {
    const drafts = all('Fresh inventory\n\n1. 200 gaj plot Sector 106 @ 1.65\n2. 250 gaj plot Sector 108 @ 2.05\n\nRS Estates\n9999900015')
    expect(drafts.map((d) => [d.post_type, d.size, d.budget, d.locality, d.contact_value])).toEqual([
      ['AVL', 1800, 16_500_000, 'Sector 106', '+91 99999 00015'],
      ['AVL', 2250, 20_500_000, 'Sector 108', '+91 99999 00015'],
    ])
    const loi = all('Available Aerotropolis LOIs.\n\nA150\nRate 1.38 Cr\nWhite 40/45\n\nB150\nRate 1.72\nWhite 40/45\n\n9999900015')
    expect(loi.map((d) => d.budget)).toEqual([13_800_000, 17_200_000])
  })

  test('a greeting under a listing is no part of it, and chatter gives no draft; a listing with one such word still does', () => {
    const drafts = all('Avl 2bhk Sector 70 rent 18k 9999900016\nGood morning all 🙏')
    expect(drafts).toHaveLength(1)
    expect(drafts[0]!.details).not.toContain('Good morning')
    for (const text of [
      'Meeting at 5 pm today at the office',
      "Rs. 699 - 5 LEAD'S\nRs. 2,999 - 40 LEAD'S\nPremium leads services for real estate agents",
      'BUY SELL\nANY TYPE OF LAND\nNEARBY MOHALI\nCONTACT 9999900016',
      'Urgent Required telecaller girl, 1 yr experience, good salary + incentives, Block E Aerocity 9999900016',
      'Hi all, I am Rakesh from Sai Realty, dealing in Aerocity plots since 2008',
      'Kal office band rahega',
    ])
      expect(all(text)).toEqual([])
    expect(only('5 BHK bungalow for sale Sector 69, experience upscale living, 8.75 Cr').budget).toBe(87_500_000)
  })

  test('a deal not said is a sale for land and houses, a rent earned makes a sale; for rent stays rent', () => {
    expect(only('Plot 300 gaj Sector 91 9999900017').sale_or_rent).toBe('SALE')
    expect(only('Booth Sector 70 pre rented 35k demand 1.10 9999900017')).toMatchObject({ sale_or_rent: 'SALE', budget: 11_000_000 })
    expect(only('BOOTH SEC 49A CHANDIGARH ( RENTAL VALUE 50000/- PM) 9999900017')).toMatchObject({ sale_or_rent: 'SALE', budget: null })
    expect(only('2bhk for rent Phase 3B2 rental 18k 9999900017')).toMatchObject({ sale_or_rent: 'RENT', budget: 18_000 })
  })

  test('two phones on a line, and a phone written with a comma, are read; a rent before a phone is no phone', () => {
    expect(only('Plot Aerotropolis 300 Gaj\nSSS ASSOCIATES\n9999900018 9999900019').contact_value).toBe('+91 99999 00018')
    expect(only('Kothi 200 sq yard Sector 66B 4 cr only\nCall 99999,00020').contact_value).toBe('+91 99999 00020')
    expect(only('2bhk rent 65000 98200 12345 Sector 70')).toMatchObject({ budget: 65_000, contact_value: '+91 98200 12345' })
  })

  test('types are written as the network knows them, so the type filter finds a pasted listing; a type it has no name for stays as read', () => {
    expect(only('2BHK for rent Sector 70 18k 9999900021').property_type).toBe('2 BHK Apartment')
    expect(only('Office for rent Sector 67 1200 sqft 60k 9999900021').property_type).toBe('Office Space')
    expect(only('Shop for rent Phase 5 25k 9999900021').property_type).toBe('Retail Shop')
    expect(only('Kothi for sale Phase 7 8 marla 9999900021').property_type).toBe('Independent House')
    expect(only('Bungalow for sale Sector 69 1 kanal 9999900021').property_type).toBe('Bungalow')
    expect(only('Hotel for sale in Kasauli 15 cr 9999900021').property_type).toBe('Hotel')
    // A listing shared from Brokernet keeps its type as written.
    expect(only('AVL | RENT | 2 BHK | ₹45K | 650 sq ft | Andheri West (West) | Contact Asha +91 98200 12345').property_type).toBe('2 BHK')
  })
})

describe('messages pasted one after another without their headers (issue 30)', () => {
  const mumbai = new LocalityIndex([{ name: 'Kandivali West', zone: 'North' }, { name: 'Malad West', zone: 'North' }, { name: 'Matunga', zone: 'Central' }, { name: 'Lower Parel', zone: 'South' }])
  test('the other side said with what or how much is another message, even mid-line; a requirement’s own options are not', () => {
    const drafts = parsePaste('reqd 2bhk kandivali w 35-40k family\n\n1 BHK available on L&L in Malad West, 450 carpet, 27k neg.', mumbai)
    expect(drafts.map((d) => [d.post_type, d.property_type, d.budget, d.locality])).toEqual([
      ['REQ', '2 BHK Apartment', 40_000, 'Kandivali West'],
      ['AVL', '1 BHK Apartment', 27_000, 'Malad West'],
    ])
    const req = parsePaste('Req studio near Lower Parel for a working professional, budget 35k\n\nPagdi 1RK in Matunga, 250 sq ft, 28 lakh, ground floor', mumbai)
    expect(req.map((d) => [d.post_type, d.property_type])).toEqual([
      ['REQ', 'Studio'],
      ['AVL', '1 RK'],
    ])
    expect(parsePaste('Wanted 2bhk Kandivali W\n3bhk also ok\nbudget 40k', mumbai)).toHaveLength(1)
  })
  test('Avl after a signature is another message, however little it says on its first line', () => {
    const drafts = parsePaste('Kothi for sale Sector 70 demand 4 cr\nCall 9999900030\n\nAvailable\n\nSector 82 JLPL\n\n538 sq yards plot\n\n9999900031', new LocalityIndex([], 'Mohali'))
    expect(drafts.map((d) => [d.property_type, d.locality, d.contact_value])).toEqual([
      ['Independent House', 'Sector 70', '+91 99999 00030'],
      ['Plot', 'Sector 82', '+91 99999 00031'],
    ])
  })
})

// Rules written for the misses of a blind set in the real groups' style (tests/fixtures/whatsapp-real-style-blind.ts),
// each a shape of text rather than a message, with the case it must not overreach into.
describe('shapes of real broker text found on a blind set (issue 30)', () => {
  const mohali = new LocalityIndex([], 'Mohali')
  const only = (text: string, index = mohali) => {
    const drafts = parsePaste(text, index)
    expect(drafts).toHaveLength(1)
    return drafts[0]!
  }

  test('a range written with a dash and a point is a range of money, not a date; a date keeps one separator', () => {
    expect(only('Looking for 3 BHK Sector 70\nBudget 1-1.25 cr\nCall 9999900040').budget).toBe(12_500_000)
    expect(only('Wanted 2 BHK Sector 70 budget 2-2.50 cr 9999900040').budget).toBe(25_000_000)
    expect(only('Plot 200 gaj Sector 70, listed 16.06.25, demand 2.5 cr 9999900040').budget).toBe(25_000_000)
    expect(only('Plot 200 gaj Sector 70, listed 1-1-25, call 9999900040').budget).toBeNull()
  })

  test('a labelled number is no size range’s first end: Sector 91 - 100 sq yd; a plot’s own range stays', () => {
    expect(only('SCO AVAILABLE\nSctr 91 - 100 sq yd - 3.10 cr\n9999900041')).toMatchObject({ size: 900, locality: 'Sector 91', budget: 31_000_000 })
    expect(only('Plot no 35 - 250 gaj Sector 70 demand 2 cr 9999900041').size).toBe(2250)
    expect(only('Wanted plot 100-150 gaj Sector 70 9999900041').size).toBe(1350)
    expect(only('Flat 1200-1300 sq.ft built up for sale Sector 70 9999900041').size).toBe(1200)
  })

  test('Ph before a phase’s number is the phase, before a phone the phone; a building described is no firm, a firm’s name is', () => {
    expect(only('Kothi for sale\nPh-3A Mohali\n8 marla single storey\nDmd 2.40\n9999900042')).toMatchObject({ locality: 'Phase 3A', size: 1800, budget: 24_000_000 })
    expect(only('Booth for sale\nPh 7 market\nDemand 1.2 cr\nPh 9999900042')).toMatchObject({ locality: 'Phase 7', contact_value: '+91 99999 00042' })
    const two = parsePaste('Kothi for sale Sector 70\n8 marla\nPh. 9999900042\n\nPlot for sale Sector 71\n10 marla\n9999900043', mohali)
    expect(two.map((d) => [d.locality, d.contact_value])).toEqual([
      ['Sector 70', '+91 99999 00042'],
      ['Sector 71', '+91 99999 00043'],
    ])
    expect(only('Kothi for sale\nOld construction\nDemand 2.40\n9999900042').budget).toBe(24_000_000)
    expect(only('Kothi for sale Sector 70\nDemand 4 cr\nGill Constructions\n9999900042')).toMatchObject({ locality: 'Sector 70', budget: 40_000_000 })
  })

  test('a rent plus maintenance is the rent; maintenance alone, or a deposit before the plus, is not', () => {
    const bengaluru = new LocalityIndex([{ name: 'Whitefield', zone: 'East' }], 'Bengaluru')
    expect(only('3 BHK for Rent Whitefield\n💰 Rent: ₹68,000 + maintenance\n💳 Deposit: ₹4,00,000', bengaluru).budget).toBe(68_000)
    expect(only('2 BHK for rent Whitefield 30k (+ maintenance)', bengaluru).budget).toBe(30_000)
    expect(only('2 BHK for rent Whitefield\nRent 45000\nMaintenance 3,500 + deposit 2 lakh', bengaluru).budget).toBe(45_000)
    expect(only('2 BHK for rent Whitefield, 3,500 maintenance, call 9999900044', bengaluru).budget).toBeNull()
  })

  test('covered and open areas are two measures of one property; an industrial shed is let as a warehouse, four sheds are counted', () => {
    expect(only('Industrial shed for rent\nSector 74A\nCovered 6000 sqft\nOpen area 2000 sqft\nRent 1.8 lac\n9999900045')).toMatchObject({ property_type: 'Warehouse', size: 6000, budget: 180_000 })
    expect(only('Factory for sale Phase 9, 1000 sq yd, demand 6 cr, 9999900045').property_type).toBe('Warehouse')
    expect(only('Plot 300 gaj with 4 shed rental income Sector 70 9999900045')).toMatchObject({ property_type: 'Plot', locality: 'Sector 70', budget: null })
    expect(parsePaste('Plots available Phase 8\n1000 sq yd corner\n2000 sq yd\n9999900045', mohali)).toHaveLength(2)
  })

  test('a plot or site named with its measure beside a home is the land it stands on; a plot of its own is another listing', () => {
    const bengaluru = new LocalityIndex([], 'Bengaluru')
    expect(only('✨ 4 BHK Villa for Sale — Sarjapur Road\n🏡 Gated villa community\n📐 Plot 2,400 sq.ft | Built-up 3,600 sq.ft\n💰 Expected: ₹3.2 Cr', bengaluru)).toMatchObject({ property_type: '4 BHK Apartment', size: 2400, budget: 32_000_000 })
    expect(only('🏡 Independent House for Sale – Jayanagar 4th Block\n📐 Site 40×60 | 3 floors | 6 BHK\n💰 ₹7.9 Cr', bengaluru)).toMatchObject({ property_type: '6 BHK Apartment', budget: 79_000_000 })
    const two = parsePaste('Kothi for sale Sector 70 1 kanal 4 cr\n\nPlot 500 gaj Sector 82 3 cr\n9999900046', mohali)
    expect(two.map((d) => [d.property_type, d.locality])).toEqual([
      ['Independent House', 'Sector 70'],
      ['Plot', 'Sector 82'],
    ])
    expect(only('Plot 300 gaj for sale Sector 91, 9999900046').property_type).toBe('Plot')
  })

  test('the place right after the type or the intent, past a dash or a bar; initials, and an ordinal with its suffix, belong to its name', () => {
    const bengaluru = new LocalityIndex([], 'Bengaluru')
    expect(only('🔥 Plot for Sale – JP Nagar 7th Phase\n💰 Price: ₹1.65 Cr', bengaluru).locality).toBe('JP Nagar 7th Phase')
    expect(only('✨ 4 BHK Villa for Sale — Sarjapur Road\n🏡 Gated villa community\n💰 ₹3.2 Cr', bengaluru).locality).toBe('Sarjapur Road')
    expect(only('Villa for sale Koramangala 3rd Block 8 cr', bengaluru).locality).toBe('Koramangala 3rd Block')
    expect(only('Flat for sale | Bellandur | 1.2 Cr', bengaluru).locality).toBe('Bellandur')
    // A gated community is no place, and a floor's ordinal stays the floor's.
    expect(only('Villa for sale, gated community, 3 Cr', bengaluru).locality).toBeNull()
    expect(only('2 BHK for rent Bellandur 3rd floor 30k', bengaluru).locality).toBe('Bellandur')
  })

  test('Punjabi words in Gurmukhi: ਪਲਾਟ ਵਿਕਾਊ is a plot for sale, ਜ਼ਰੂਰਤ a requirement (its ਜ਼ either way), ਕੋਠੀ ਕਿਰਾਏ a kothi to let', () => {
    expect(only('ਪਲਾਟ ਵਿਕਾਊ ਹੈ\n\nSector 79\n8 marla\nDemand 2.95\n9999900047')).toMatchObject({ post_type: 'AVL', sale_or_rent: 'SALE', property_type: 'Plot', budget: 29_500_000 })
    for (const need of ['\u0A5Bਰੂਰਤ ਹੈ', '\u0A1C\u0A3Cਰੂਰਤ ਹੈ', 'ਚਾਹੀਦਾ'])
      expect(only(`${need}\n2 bhk flat Sector 70\nBudget 45 lakh tak\n9999900047`)).toMatchObject({ post_type: 'REQ', budget: 4_500_000 })
    expect(only('ਕੋਠੀ ਕਿਰਾਏ ਲਈ ਖਾਲੀ ਹੈ Sector 70 rent 40k 9999900047')).toMatchObject({ sale_or_rent: 'RENT', property_type: 'Independent House' })
    // A warning in Punjabi names no property: no draft; and a word inside another is no word (ਪਲਾਟਾਂ, plots, still is one).
    expect(parsePaste('ਸਾਰੇ ਮੈਂਬਰਾਂ ਨੂੰ ਬੇਨਤੀ ਹੈ ਜੀ ਇਹ ਬੰਦਾ ਚੋਰੀਆਂ ਕਰ ਰਿਹਾ ਅੱਜ ਇਸ ਨੇ 370 ਨੰਬਰ ਚੋਰੀ ਕੀਤੀ ਹੈ।', mohali)).toEqual([])
    expect(only('ਮਕਾਨਾਂ ਦੀ ਗੱਲ, Sector 70, demand 2 cr, 9999900047').property_type).toBeNull()
  })

  test('items one a line under a heading naming their kind and area share the heading; a first listing of its own keeps its lines', () => {
    const plots = parsePaste('AEROCITY PLOTS AVAILABLE\n\nD block 300 gaj @ 2.55\nE block 200 gaj @ 1.78\nF block 150 gaj @ 1.40\n\nCall 9999900048', mohali)
    expect(plots.map((d) => [d.property_type, d.size, d.budget, d.locality])).toEqual([
      ['Plot', 2700, 25_500_000, 'D Block'],
      ['Plot', 1800, 17_800_000, 'E Block'],
      ['Plot', 1350, 14_000_000, 'F Block'],
    ])
    // The first line is a listing, not a heading: its place stays its own and the second keeps its kind.
    const own = parsePaste('Kothi Sector 70 1 kanal 5 cr\nPlot Sector 71 500 gaj 3 cr\n9999900048', mohali)
    expect(own.map((d) => [d.property_type, d.locality])).toEqual([
      ['Independent House', 'Sector 70'],
      ['Plot', 'Sector 71'],
    ])
  })

  test('a figure with a fraction ending a line with a size or a kind is that item’s price; a block’s or a floor’s number is not', () => {
    const kothis = parsePaste('Kothi inventory aerocity\n\nBlock A 200 gaj double story 4.30\nBlock C 300 gaj triple story 6.25\n\n9999900049', mohali)
    expect(kothis.map((d) => [d.size, d.budget, d.locality])).toEqual([
      [1800, 43_000_000, 'Block A'],
      [2700, 62_500_000, 'Block C'],
    ])
    expect(only('Plot 200 gaj Sector 70\nBlock 2.5\n9999900049').budget).toBeNull()
    expect(only('3 BHK flat Sector 70 floor 2.5 9999900049').budget).toBeNull()
    expect(only('Kothi Sector 70 10 marla 2.5 storey\n9999900049').budget).toBeNull()
  })

  test('another trade’s ad, a fraud warning and a menu of kinds dealt in give no draft; a listing naming one such word still does', () => {
    for (const text of [
      'PACKERS & MOVERS TRICITY\n\nLocal shifting from Rs. 4,999\n\n1 BHK shifting Rs. 8,000\n\n2 BHK shifting Rs. 12,000\n\n9999900050',
      'HOME LOAN @ 8.35%\nBalance transfer | Top up\nLoan up to 5 Cr\nSector 70 Mohali\n9999900050',
      '⚠️ ALERT ⚠️\n\nFraud caller asking token money for plots in Sector 82 and Aerocity.\n\nDon’t deal with 9999900050',
      'List your property FREE on our app\n\n10,000+ brokers of Mohali already on it\n\nSale | Rent | Plots | Flats | SCO',
    ])
      expect(parsePaste(text, mohali)).toEqual([])
    expect(only('Owner shifting abroad, urgent sale\nKothi Sector 70 1 kanal\nDemand 5 cr\n9999900050').budget).toBe(50_000_000)
    expect(only('PRE LAUNCH ALERT\nPlots Sector 82, 200 gaj\n9999900050').size).toBe(1800)
    expect(only('Wanted booth / shop / SCO in Phase 5, call 9999900050').post_type).toBe('REQ')
    expect(only('Flats and plots available Sector 70, 2 BHK 65 lakh, call 9999900050').budget).toBe(6_500_000)
    // A listing that sells, lets or asks for a property may name a loan, movers or a fraud in passing.
    expect(only('2 BHK flat for sale Sector 115, 32 lakh, home loan available, balance transfer possible, 9999900050').budget).toBe(3_200_000)
    expect(only('Kothi for sale Sector 70 demand 3 cr. Owner shifting abroad, packers coming next week. 9999900050').budget).toBe(30_000_000)
    expect(only('Beware of fraud brokers! Direct owner kothi for sale Sector 70, call 9999900050').locality).toBe('Sector 70')
  })

  test('new or old before a name word is part of the name, and a line that is only a name may have five words; brand new is no place', () => {
    expect(only('Flat for sale\nNew Chandigarh\n3 BHK 1.1 cr\n9999900051').locality).toBe('New Chandigarh')
    expect(only('Eco City 2 New Chandigarh\nPlot 300 gaz\nTotal 1.56 cr\n9999900051').locality).toBe('Eco City 2 New Chandigarh')
    expect(only('Brand new flat\n2 BHK 60 lakh\n9999900051').locality).toBeNull()
    expect(only('Kothi for sale\nNew construction\nSector 70\n9999900051').locality).toBe('Sector 70')
  })

  test('what a requirement accepts inside a place ends its name (Aerocity any block); a project’s name keeps its Garden before its phase', () => {
    expect(only('Wanted plot\nAerocity any block\n200 to 250 gaj\nBudget 2.5 to 3 cr\n9999900052')).toMatchObject({ locality: 'Aerocity', budget: 30_000_000 })
    expect(only('Wanted 2 BHK\nHomeland Heights any tower\nbudget 70 lakh\n9999900052').locality).toBe('Homeland Heights')
    expect(only('Wanted plot\nany block\n200 gaj\n9999900052').locality).toBeNull()
    expect(only('Flat for sale Maya Garden Phase 2 VIP Road 3 BHK 9999900052').locality).toBe('Maya Garden Phase 2')
    expect(only('Kothi for sale corner park Phase 7 10 marla 9999900052').locality).toBe('Phase 7')
  })

  test('a size’s kind said after it (1650 sqft super, 1250 sqft carpet) makes two measures of one flat; two flats’ carpets are two', () => {
    expect(only('Flat for sale Sector 88\n3 BHK\n1650 sqft super\n1250 sqft carpet\n95 lakh\n9999900053')).toMatchObject({ size: 1650, budget: 9_500_000 })
    const two = parsePaste('Flats Sector 88\n3 BHK 1650 sqft carpet 95 lakh\n4 BHK 2100 sqft carpet 1.2 cr\n9999900053', mohali)
    expect(two.map((d) => [d.size, d.budget])).toEqual([
      [1650, 9_500_000],
      [2100, 12_000_000],
    ])
  })

  test('/- after a small figure leaves it bare (Rate 5.75/- is crores), after a rupee amount it marks one; Sector no. 70; Phase-IX', () => {
    expect(only('Plot 1 kanal Sector 82\nRate 5.75/-\n9999900054')).toMatchObject({ sale_or_rent: 'SALE', budget: 57_500_000 })
    expect(only('Flat for rent Sector 70 rent 25000/- 9999900054').budget).toBe(25_000)
    expect(only('Plot for sale Sector no. 70 10 marla 9999900054').locality).toBe('Sector 70')
    expect(only('Kothi for sale Phase-IX 1 kanal 9999900054').locality).toBe('Phase 9')
    expect(only('Kothi for sale Phase XI 1 kanal 9999900054').locality).toBe('Phase 11')
    // Only after the whole word: `ph i` is no phase, `Phase 3B2` keeps its letters.
    expect(only('Kothi for sale ph i 1 kanal 9999900054').locality).toBeNull()
    expect(only('Kothi for sale Phase 3B2 9999900054').locality).toBe('Phase 3B2')
  })

  test('a sold notice offering nothing and naming no price gives no draft; one that still offers units with a price does', () => {
    expect(parsePaste('Sold ✅ Sector 79 kothi 10 marla. Thanks all', mohali)).toEqual([])
    expect(parsePaste('Deal done: Sector 82 plot 300 gaj', mohali)).toEqual([])
    expect(only('Sold out fast! Last 2 units left. 3 BHK Sector 88 Hero Homes 95 lakh. Call 9999900055').budget).toBe(9_500_000)
    expect(only('Booked deal Sector 82 300 gaj @ 2.45 9999900055').budget).toBe(24_500_000)
  })

  test('a figure with a fraction alone on its line prices the listing whose size or kind is given; "final" after a figure names it', () => {
    expect(only('Plot for sale\nSector 80\n300 gaj\n2.65\n9999900056').budget).toBe(26_500_000)
    expect(only('Kothi for sale Sector 70\n10 marla\n3.40 final\n9999900056').budget).toBe(34_000_000)
    // Nothing said of what it is: no price; a whole number alone (a house number) is none either.
    expect(parsePaste('Hello\n2.65\n9999900056', mohali)).toEqual([])
    expect(only('Kothi for sale Sector 70\n10 marla\n2425\n9999900056').budget).toBeNull()
  })

  test('a project’s name on the line before the phone is the place, not the broker’s name; a person’s name there stays the signature’s', () => {
    expect(only('Flat for sale\n3 BHK\n1.2 cr\nMarbella Grand\n9999900057').locality).toBe('Marbella Grand')
    expect(only('Flat for sale 3 BHK 1.2 cr\nHomeland Heights\nCall 9999900057').locality).toBe('Homeland Heights')
    expect(only('Flat for sale Sector 70 3 BHK 1.2 cr\nNitin Verma\n9999900057').locality).toBe('Sector 70')
    expect(only('Flat for sale 3 BHK 1.2 cr\nNitin Verma\n9999900057').locality).toBeNull()
  })
})
