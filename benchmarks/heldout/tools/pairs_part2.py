# Hand-written held-out pairs, part 2: statement_of_work, policy, lease_or_contract, meeting_minutes_or_email, general_prose.
from pairs_part1 import add

# ---------------------------------------------------------------- statement_of_work
add("statement_of_work", """
STATEMENT OF WORK No. 3 under Master Services Agreement MSA-2023-07
Client: Fairhaven Credit Union
Provider: Lumenstack Data Services LLC
Project: Core banking data migration
Start date: 2024-04-01   Target completion: 2024-09-30

Milestone                         Due          Fee (USD)
M1 Data mapping sign-off          2024-05-15   45,000
M2 Test migration complete        2024-07-31   80,000
M3 Production cut-over            2024-09-15   95,000
M4 Hypercare ends                 2024-09-30   20,000

Fees are fixed per milestone and invoiced on client acceptance. Out-of-pocket travel is reimbursed at cost up to a cap of USD 12,000.
""", [
    ("arithmetic", "The fixed milestone fees in SOW No. 3 add up to USD 240,000.", "S"),
    ("temporal_order", "Production cut-over is due before the test migration is complete.", "C"),
    ("money", "Travel reimbursement under SOW No. 3 is capped at USD 12,000.", "S"),
    ("entity", "Fairhaven Credit Union is the provider under SOW No. 3.", "C"),
    ("identifier", "SOW No. 3 is issued under MSA-2023-70.", "C"),
    ("comparison", "Milestone M3 carries the largest fee in SOW No. 3.", "S"),
    ("duration", "The project under SOW No. 3 is planned to run for six months.", "S"),
])

add("statement_of_work", """
This Statement of Work, effective 2 September 2024, engages Nadia Okonkwo (the Consultant) to deliver a compliance training programme for Pellworth Logistics (the Company). The Consultant will deliver 12 half-day sessions at a day rate of GBP 1,100, i.e. GBP 550 per session. Materials development is billed separately at a fixed fee of GBP 3,800. The Company may cancel any session with at least 5 business days' notice without charge.
""", [
    ("arithmetic", "Sessions plus materials under this SOW come to GBP 10,400.", "S"),
    ("units", "The 12 sessions amount to six full days of training.", "S"),
    ("modality_tense", "The Consultant has delivered all twelve sessions.", "C"),
    ("comparison", "The Company may cancel a session with 3 business days' notice without charge.", "C"),
    ("entity", "Nadia Okonkwo engaged Pellworth Logistics to deliver the training.", "C"),
    ("unrelated", "The training sessions will be held at Pellworth's Derby depot.", "U"),
])

add("statement_of_work", """
SOW-PX-118 - Rate card and estimate (Vantara Software -> Kilbride Health Trust)
| Role | Hourly rate (EUR) | Est. hours |
| Solution architect | 165 | 120 |
| Senior developer | 120 | 480 |
| QA engineer | 85 | 200 |
Estimated total is not to exceed EUR 95,000 without a written change order.
""", [
    ("arithmetic", "The estimate in SOW-PX-118 totals EUR 94,400.", "S"),
    ("comparison", "The estimate in SOW-PX-118 exceeds the not-to-exceed amount.", "C"),
    ("units", "The senior developer estimate equals 60 eight-hour days.", "S"),
    ("number", "The QA engineer rate in SOW-PX-118 is EUR 120 per hour.", "C"),
    ("unrelated", "Vantara Software will bill SOW-PX-118 monthly in arrears.", "U"),
])

add("statement_of_work", """
{"sow": {"id": "SOW-2291", "vendor": "Ardent Field Services", "customer": "Corrigan Wind Farms", "scope": "Blade inspection, 34 turbines", "pricing": {"model": "unit", "per_turbine_eur": 1450, "mobilisation_eur": 6200}, "schedule": {"window_start": "2025-05-05", "window_end": "2025-06-13"}, "acceptance": {"report_due_days_after_inspection": 10}}}
""", [
    ("arithmetic", "The SOW-2291 price including mobilisation is EUR 55,500.", "S"),
    ("spelled_out_numbers", "SOW-2291 covers thirty-four turbines.", "S"),
    ("duration", "The SOW-2291 inspection window spans 40 days counting both ends.", "S"),
    ("entity", "Corrigan Wind Farms is the vendor in SOW-2291.", "C"),
    ("money", "Mobilisation in SOW-2291 is priced at EUR 6,000.", "C"),
])

add("statement_of_work", """
Change Order CO-4 to SOW 17 (Halvorsen Marine / Quayline Systems): adds 60 hours of integration work at the existing rate of NOK 1,350 per hour and extends the completion date from 31 January 2025 to 28 February 2025. All other terms are unchanged.
""", [
    ("arithmetic", "CO-4 adds NOK 81,000 of work to SOW 17.", "S"),
    ("duration", "CO-4 extends the completion of SOW 17 by four weeks.", "S"),
    ("paraphrase", "After CO-4, SOW 17 is due to be completed by the end of February 2025.", "S"),
    ("unrelated", "CO-4 was requested by Halvorsen Marine.", "U"),
    ("number", "CO-4 adds 80 hours of integration work.", "C"),
])

add("statement_of_work", """
Statement of Work - Office relocation support
Client: Bramley & Tait Accountants
Contractor: MoveRight Commercial Ltd
Scope: pack and move 85 workstations and 40 filing cabinets from Floor 3, 22 Kingsway to Floor 6, 1 Harbour Square over one weekend (Saturday 15 - Sunday 16 March 2025).
Price: £14,450 fixed, excluding VAT. The price excludes IT disconnection and reconnection, which the Client will arrange.
""", [
    ("negation", "The contractor's price includes IT reconnection.", "C"),
    ("arithmetic", "Dividing the fixed price by the number of workstations gives £170.", "S"),
    ("paraphrase", "The office move is scheduled for the weekend of 15-16 March 2025.", "S"),
    ("entity", "MoveRight Commercial Ltd will arrange the IT disconnection.", "C"),
    ("unrelated", "Bramley & Tait Accountants has 110 employees.", "U"),
    ("subtotal_vs_total", "The relocation costs £14,450 including VAT.", "C"),
])

# ---------------------------------------------------------------- policy
add("policy", """
Travel & Expense Policy (rev. 2024), section 4 - daily limits
| Expense | Domestic | International |
| Hotel (per night) | USD 220 | USD 320 |
| Meals (per day) | USD 75 | USD 110 |
| Ground transport (per day) | USD 60 | USD 90 |
Receipts are required for any single expense over USD 25. Business-class air travel is permitted only for flights longer than 8 hours and requires VP approval.
""", [
    ("number", "The international hotel limit is USD 220 per night.", "C"),
    ("arithmetic", "A three-night domestic trip allows up to USD 660 for hotels.", "S"),
    ("comparison", "A USD 40 dinner must be supported by a receipt.", "S"),
    ("modality_tense", "Business-class travel is allowed on a 6-hour flight if a VP approves it.", "C"),
    ("unrelated", "Employees must book flights through the corporate travel agency.", "U"),
    ("arithmetic", "The international daily limits for meals and ground transport together are USD 200.", "S"),
])

add("policy", """
Annual leave: Full-time employees accrue 2.08 days of annual leave per month of service (25 days per year). Part-time employees accrue pro rata. Up to 5 unused days may be carried over into the following year and must be used by 31 March; any other unused leave is forfeited. Leave requests of more than 10 consecutive working days need approval from the department head at least 4 weeks in advance.
""", [
    ("paraphrase", "A full-time employee earns 25 days of annual leave a year.", "S"),
    ("comparison", "Employees can carry over up to 8 unused days of leave.", "C"),
    ("date", "Carried-over leave days may be used until the end of June.", "C"),
    ("modality_tense", "A request for 12 consecutive working days of leave needs department head approval.", "S"),
    ("negation", "Unused leave beyond the carry-over limit is paid out in cash.", "C"),
    ("units", "Requests for long leave must be approved at least 28 days in advance.", "S"),
])

add("policy", """
Per diem schedule (Field Staff Travel Policy FS-7)
Effective: 1 July 2024
Mileage rate (private car): 0.45 per km, first 10,000 km per year; 0.25 per km thereafter
Overnight allowance: 35.00 per night
Day trip allowance (over 5 hours): 12.50
Day trip allowance (over 10 hours): 20.00
Currency: GBP
""", [
    ("arithmetic", "A 240 km trip in a private car within the first 10,000 km is reimbursed £108.", "S"),
    ("arithmetic", "Once an employee has passed 10,000 km in the year, a 100 km trip pays £45.", "C"),
    ("comparison", "A 7-hour day trip qualifies for the £20.00 allowance.", "C"),
    ("date", "The FS-7 rates took effect in July 2024.", "S"),
    ("unrelated", "Policy FS-7 reimburses public transport at cost.", "U"),
    ("money", "The FS-7 overnight allowance is £35.00 per night.", "S"),
])

add("policy", """
{"policy": "procurement-approvals", "version": "3.2", "currency": "CAD", "rules": [{"min_amount": 0, "max_amount": 4999.99, "approver": "budget holder"}, {"min_amount": 5000, "max_amount": 49999.99, "approver": "finance manager"}, {"min_amount": 50000, "max_amount": null, "approver": "CFO", "also_requires": "two quotes"}]}
""", [
    ("comparison", "A CAD 5,000 purchase needs finance manager approval.", "S"),
    ("number", "A CAD 60,000 purchase must be supported by two quotes.", "S"),
    ("entity", "A CAD 12,500 purchase can be approved by the budget holder alone.", "C"),
    ("unrelated", "Purchases from sole-source suppliers need legal review.", "U"),
])

add("policy", """
Remote Working Policy, section 2: Employees may work remotely for up to two days per week after completing their probation period of six months. Remote days must be agreed with the line manager in advance and recorded in the HR system. Employees are not permitted to work remotely from outside the country without written approval from HR.
""", [
    ("modality_tense", "An employee in the fourth month of employment may work remotely one day a week.", "C"),
    ("spelled_out_numbers", "After probation, employees can work remotely up to 2 days each week.", "S"),
    ("negation", "Working remotely from abroad requires no approval.", "C"),
    ("duration", "The probation period lasts half a year.", "S"),
    ("unrelated", "The company pays remote workers a home-office allowance of 300 per year.", "U"),
])

add("policy", """
Gifts and Hospitality: Staff must declare any gift or hospitality valued above EUR 50 in the gifts register within 14 days of receipt. Gifts above EUR 150 must be declined or surrendered to the Compliance Office. Cash gifts of any amount may not be accepted.
""", [
    ("temporal_order", "A gift worth EUR 80 received on 3 May must be registered by 17 May.", "S"),
    ("negation", "A EUR 30 cash gift may be accepted.", "C"),
    ("paraphrase", "Gifts worth more than EUR 150 have to be declined or handed to the Compliance Office.", "S"),
    ("duration", "Staff have 30 days to declare a gift.", "C"),
])

# ---------------------------------------------------------------- lease_or_contract
add("lease_or_contract", """
COMMERCIAL LEASE - KEY TERMS
Landlord: Brennan Property Holdings Ltd
Tenant: Saffron Table Restaurants Ltd
Premises: Unit 4, Quay Street, Galway
Term: 10 years from 1 June 2024
Rent: EUR 48,000 per annum, payable quarterly in advance
Rent review: upward-only, every 5 years
Break option: Tenant may terminate on the 5th anniversary of the term start on 6 months' written notice
Security deposit: 3 months' rent
""", [
    ("arithmetic", "Each quarterly rent payment is EUR 12,000.", "S"),
    ("arithmetic", "The security deposit is EUR 14,000.", "C"),
    ("date", "The tenant's break date falls on 1 June 2029.", "S"),
    ("modality_tense", "The rent may go down at a rent review.", "C"),
    ("entity", "Saffron Table Restaurants Ltd is the landlord.", "C"),
    ("temporal_order", "To use the break option, the tenant must serve notice no later than 1 December 2028.", "S"),
    ("unrelated", "The tenant is responsible for external repairs.", "U"),
])

add("lease_or_contract", """
This Agreement is made on 15 January 2024 between Corvina Foods S.p.A. ("Buyer") and Altamura Olive Oil Cooperative ("Seller"). Seller shall deliver 24,000 litres of extra virgin olive oil in four equal quarterly lots during 2024 at EUR 6.80 per litre. Payment is due 60 days after each delivery. Either party may terminate for material breach on 30 days' written notice if the breach is not cured within that period.
""", [
    ("arithmetic", "Each quarterly lot is 6,000 litres.", "S"),
    ("arithmetic", "The total contract value is EUR 163,200.", "S"),
    ("entity", "Altamura Olive Oil Cooperative is the Buyer under the agreement.", "C"),
    ("number", "Payment is due 30 days after each delivery.", "C"),
    ("unrelated", "Corvina Foods S.p.A. is based in Bologna.", "U"),
    ("spelled_out_numbers", "The agreement is dated the fifteenth of January 2024.", "S"),
])

add("lease_or_contract", """
Equipment Lease Agreement EL-6620 - Schedule A
Lessor: Northgate Capital Leasing   Lessee: Dumont Print Works
Equipment: Heidelberg Speedmaster SX 52 (serial 552019)
Month    Payment (USD)
1-12     4,250.00
13-36    3,980.00
Purchase option at end of term: USD 1.00
""", [
    ("duration", "The EL-6620 lease runs for three years.", "S"),
    ("arithmetic", "Total scheduled payments under EL-6620 come to USD 146,520.", "S"),
    ("arithmetic", "Payments in the first year of EL-6620 total USD 51,600.", "C"),
    ("identifier", "The leased press has serial number 552091.", "C"),
    ("negation", "The lessee cannot buy the equipment at the end of the term.", "C"),
])

add("lease_or_contract", """
Mutual Non-Disclosure Agreement between Ostara Biotech Inc. and Kell Analytics Ltd, effective March 4, 2024. Confidentiality obligations survive for three (3) years after termination. The agreement may be terminated by either party on thirty days' written notice. Information that is already public, or independently developed without use of the other party's information, is excluded from protection.
""", [
    ("spelled_out_numbers", "Confidentiality obligations last 3 years after termination.", "S"),
    ("paraphrase", "Either party can end the NDA by giving 30 days' written notice.", "S"),
    ("negation", "Publicly available information is protected under the NDA.", "C"),
    ("modality_tense", "Only Ostara Biotech Inc. may terminate the agreement.", "C"),
    ("unrelated", "Kell Analytics Ltd will receive genomic data under the NDA.", "U"),
    ("date", "The NDA took effect on 2024-04-03.", "C"),
])

add("lease_or_contract", """
{"contract": {"id": "MSA-8821", "parties": {"customer": "Halden Municipality", "supplier": "Fjordnet Telecom AS"}, "effective_date": "2023-10-01", "initial_term_months": 24, "renewal": {"auto": true, "period_months": 12, "notice_days": 90}, "liability_cap": {"amount": 2500000, "currency": "NOK", "basis": "per contract year"}, "sla": {"availability_pct": 99.8, "service_credit_pct_per_0_1_below": 5}}}
""", [
    ("date", "The initial term of MSA-8821 ends on 30 September 2025.", "S"),
    ("paraphrase", "MSA-8821 renews automatically for 12-month periods unless notice is given 90 days ahead.", "S"),
    ("money", "Liability under MSA-8821 is capped at NOK 25,000,000 per contract year.", "C"),
    ("percent", "MSA-8821 commits to 99.9% availability.", "C"),
    ("entity", "Halden Municipality is the supplier under MSA-8821.", "C"),
    ("percent", "Service credits under MSA-8821 are capped at 20% of the monthly fee.", "U"),
])

add("lease_or_contract", """
Residential Tenancy - 17B Marlow Court. Tenants: Aisha Rahman and Tom Beckett (jointly and severally liable). Monthly rent: $2,350, due on the 1st. A late fee of $75 applies if rent is received after the 5th. Pets are not allowed without the landlord's written consent.
""", [
    ("money", "Rent received on the 4th of the month incurs a $75 late fee.", "C"),
    ("arithmetic", "A year's rent for 17B Marlow Court is $28,200.", "S"),
    ("paraphrase", "Pets are permitted at 17B Marlow Court with the landlord's written consent.", "S"),
    ("entity", "Tom Beckett is the only tenant of 17B Marlow Court.", "C"),
])

# ---------------------------------------------------------------- meeting_minutes_or_email
add("meeting_minutes_or_email", """
From: Grace Adeyemi <g.adeyemi@tarrant-eng.com>
To: Luis Ferreira <lferreira@balsamo-steel.pt>
Date: Tue, 10 Sep 2024 09:12
Subject: RE: PO-6617 delivery

Luis, thanks for confirming. To summarise: the first 12 tonnes of S355 plate will ship from Aveiro on 16 September, and the remaining 8 tonnes on 30 September. We agreed the price of EUR 910 per tonne stays fixed for both shipments. Please send the mill certificates with each shipment.
""", [
    ("arithmetic", "PO-6617 covers 20 tonnes of plate in total.", "S"),
    ("arithmetic", "The plate under PO-6617 is worth EUR 18,200 in total.", "S"),
    ("modality_tense", "The first 12 tonnes of plate had already shipped when the email was sent.", "C"),
    ("temporal_order", "The second shipment leaves two weeks after the first.", "S"),
    ("entity", "Luis Ferreira wrote the email summarising the agreement.", "C"),
    ("unrelated", "The plate will travel from Aveiro by sea.", "U"),
])

add("meeting_minutes_or_email", """
Minutes - Finance Committee, Hollybrook Housing Association, 21 May 2024
Present: M. Osei (Chair), R. Lindgren, P. Kowalczyk, D. Haas. Apologies: S. Brandt.
1. Q1 accounts: rental income GBP 1.84m against budget of GBP 1.90m. Noted.
2. Roof replacement, Elm Court: committee approved the tender from Cardew Roofing at GBP 312,000; the lower bid from Stannard Ltd (GBP 298,500) was rejected on safety record.
3. Action: R. Lindgren to circulate revised reserves policy by 7 June.
""", [
    ("units", "Q1 rental income fell GBP 60,000 short of budget.", "S"),
    ("entity", "The committee approved Stannard Ltd's tender.", "C"),
    ("arithmetic", "The approved roof tender was GBP 13,500 higher than the lower bid.", "S"),
    ("entity", "S. Brandt attended the Finance Committee meeting.", "C"),
    ("modality_tense", "R. Lindgren circulated the revised reserves policy at the meeting.", "C"),
    ("spelled_out_numbers", "Five members were listed as present.", "C"),
    ("date", "The Elm Court roof works will start in September 2024.", "U"),
])

add("meeting_minutes_or_email", """
Subject: Updated quote Q-3391 for Mbeki Agro
Hi Thandi,
As requested, here is the revised pricing (valid until 31 October 2024):
Product           Pack    Price/pack (ZAR)   Min. order
Maize seed HY7    25 kg   1,840              20 packs
Fertiliser 2:3:2  50 kg   615                40 packs
We can deliver to Polokwane within 10 working days of order.
Regards, Pieter van Zyl, Karoo Seed & Feed
""", [
    ("units", "Maize seed HY7 costs ZAR 73.60 per kilogram under quote Q-3391.", "S"),
    ("comparison", "An order of 30 packs of fertiliser meets the minimum order in quote Q-3391.", "C"),
    ("arithmetic", "The minimum maize seed order under quote Q-3391 costs ZAR 36,800.", "S"),
    ("date", "Quote Q-3391 is valid until 30 November 2024.", "C"),
    ("unrelated", "Karoo Seed & Feed charges a delivery fee to Polokwane.", "U"),
])

add("meeting_minutes_or_email", """
{"ticket": {"id": "CHG-30418", "type": "change", "title": "Upgrade ERP to v12.4", "requested_by": "Hannah Stroud", "approvals": [{"board": "CAB", "date": "2024-06-12", "decision": "approved"}], "window": {"start": "2024-06-22T22:00Z", "end": "2024-06-23T04:00Z"}, "rollback_plan": true, "status": "scheduled"}}
""", [
    ("duration", "The change window for CHG-30418 lasts six hours.", "S"),
    ("modality_tense", "The ERP upgrade under CHG-30418 has been completed.", "C"),
    ("temporal_order", "CAB approved CHG-30418 ten days before the change window opened.", "S"),
    ("identifier", "The change ticket for the ERP v12.4 upgrade is CHG-30481.", "C"),
    ("negation", "CHG-30418 has no rollback plan.", "C"),
])

add("meeting_minutes_or_email", """
Hi all - quick recap of today's call with Aurelius Pharma (Thursday 14 Nov). They want to move the kickoff from 2 December to 9 December because their QA lead is on leave. Budget is unchanged at USD 185k. Dana will send the revised timeline by Monday; I'll update the SOW. We did not discuss the data-hosting question, so that stays open. - Marco
""", [
    ("date", "Aurelius Pharma wants the kickoff moved one week later.", "S"),
    ("units", "The budget remains USD 185,000.", "S"),
    ("negation", "The data-hosting question was resolved on the call.", "C"),
    ("entity", "Marco will send the revised timeline.", "C"),
    ("date", "Aurelius Pharma's QA lead is on leave until 6 December.", "U"),
    ("temporal_order", "Dana will send the revised timeline before Marco updates the SOW.", "U"),
])

add("meeting_minutes_or_email", """
Board resolution, Tidewater Brewing Co., 3 March 2025: The board resolved to declare a dividend of $0.42 per share on the 1,250,000 ordinary shares in issue, payable on 28 March 2025 to shareholders on the register at 14 March 2025. The resolution passed 5 votes to 2.
""", [
    ("arithmetic", "The dividend will cost Tidewater Brewing Co. $525,000 in total.", "S"),
    ("number", "Seven votes were cast on the resolution.", "S"),
    ("modality_tense", "The dividend was paid on 3 March 2025.", "C"),
    ("temporal_order", "The record date falls before the payment date.", "S"),
    ("comparison", "The resolution passed unanimously.", "C"),
    ("paraphrase", "Shareholders on the register at 14 March 2025 will receive the dividend.", "S"),
    ("percent", "The dividend represents 40% of Tidewater's annual profit.", "U"),
])

add("meeting_minutes_or_email", """
Hi Oskar,
Invoice 2024-117 for the March translation work is attached. Summary: 18,400 words at SEK 1.10 per word = SEK 20,240; VAT 25% = SEK 5,060; total SEK 25,300. Payment to Bankgiro 5521-0934 within 30 days please.
Best, Ingrid Holm
""", [
    ("subtotal_vs_total", "Invoice 2024-117 totals SEK 20,240.", "C"),
    ("subtotal_vs_total", "Invoice 2024-117 comes to SEK 25,300 including VAT.", "S"),
    ("identifier", "Payment for invoice 2024-117 should go to Bankgiro 5521-0943.", "C"),
    ("money", "The translation was charged at SEK 1.10 per word.", "S"),
])

# ---------------------------------------------------------------- general_prose
add("general_prose", """
Lake Baikal, in southern Siberia, is the deepest lake in the world, reaching a maximum depth of 1,642 metres. It holds roughly 23,600 cubic kilometres of fresh water, about 22 to 23 percent of the world's fresh surface water. The lake is about 636 kilometres long. It was declared a UNESCO World Heritage Site in 1996.
""", [
    ("units", "Lake Baikal's maximum depth is more than 5,000 feet.", "S"),
    ("units", "Lake Baikal is about 636 miles long.", "C"),
    ("date", "Lake Baikal became a UNESCO World Heritage Site in 1969.", "C"),
    ("unrelated", "Lake Baikal freezes over every winter.", "U"),
    ("comparison", "Lake Baikal holds more than 20 percent of the world's fresh surface water.", "S"),
])

add("general_prose", """
Nordvik Shipping ASA was founded in Bergen in 1911 by the brothers Eilif and Harald Nordvik. The company listed on the Oslo Stock Exchange in 1987. In 2023 it reported revenue of NOK 14.2 billion, up from NOK 12.9 billion in 2022, and operated a fleet of 46 vessels. Its headquarters moved to Oslo in 2005.
""", [
    ("arithmetic", "Nordvik's revenue grew by NOK 1.3 billion from 2022 to 2023.", "S"),
    ("percent", "Nordvik's revenue grew by about 10 percent in 2023.", "S"),
    ("entity", "Nordvik Shipping was founded by Eilif and Magnus Nordvik.", "C"),
    ("temporal_order", "Nordvik listed on the stock exchange before moving its headquarters to Oslo.", "S"),
    ("entity", "Nordvik Shipping is headquartered in Bergen today.", "C"),
    ("unrelated", "Nordvik's fleet consists mainly of tankers.", "U"),
    ("duration", "Nordvik Shipping had existed for 76 years when it listed in Oslo.", "S"),
    ("spelled_out_numbers", "Nordvik operated sixty-four vessels in 2023.", "C"),
])

add("general_prose", """
Water boils at 100 °C (212 °F) at standard sea-level pressure of 101.325 kPa. At higher altitudes the boiling point drops; at about 3,000 metres it is roughly 90 °C. The specific heat capacity of liquid water is about 4.18 kJ per kilogram per kelvin.
""", [
    ("units", "At standard sea-level pressure, water boils at 212 degrees Fahrenheit.", "S"),
    ("comparison", "Water boils at a higher temperature at 3,000 metres than at sea level.", "C"),
    ("arithmetic", "Heating 2 kg of liquid water by 10 K takes about 83.6 kJ.", "S"),
    ("unrelated", "Seawater boils at 102 °C at sea level.", "U"),
    ("units", "Standard sea-level pressure is 1,013.25 hPa.", "S"),
])

add("general_prose", """
Population of the three largest cities in Freland (census 2021 vs 2011):
| City | 2011 | 2021 |
| Port Avery | 1,204,300 | 1,318,900 |
| Cresswick | 640,150 | 622,800 |
| Dunholm | 402,700 | 455,200 |
""", [
    ("arithmetic", "Port Avery grew by 114,600 people between the two censuses.", "S"),
    ("comparison", "All three cities grew between 2011 and 2021.", "C"),
    ("number", "Dunholm had 455,200 residents in 2011.", "C"),
    ("arithmetic", "Cresswick lost 17,530 residents between 2011 and 2021.", "C"),
    ("entity", "Port Avery is the capital of Freland.", "U"),
    ("percent", "Dunholm's population rose by roughly 13 percent between 2011 and 2021.", "S"),
])

add("general_prose", """
The Øresund Bridge, which opened to traffic on 1 July 2000, links Copenhagen in Denmark with Malmö in Sweden. The combined bridge and tunnel crossing is about 16 kilometres long: a 7.8-kilometre cable-stayed bridge, a 4-kilometre artificial island, Peberholm, and a 4-kilometre immersed tunnel. It carries a four-lane motorway and a double-track railway.
""", [
    ("comparison", "The bridge section is longer than the island and tunnel sections combined.", "C"),
    ("entity", "The artificial island on the Øresund crossing is called Saltholm.", "C"),
    ("spelled_out_numbers", "The motorway on the Øresund crossing has 4 lanes.", "S"),
    ("paraphrase", "The Øresund crossing opened to traffic in the summer of 2000.", "S"),
    ("unrelated", "A one-way car toll on the Øresund crossing costs about EUR 60.", "U"),
])

add("general_prose", """
Lumora Therapeutics, a biotech company based in Cambridge, Massachusetts, announced that its Phase 2 trial of LMR-204 in moderate psoriasis met its primary endpoint. The company plans to begin a Phase 3 trial in the first half of 2025, subject to FDA feedback. Lumora had 212 employees at the end of 2023 and cash of USD 318 million.
""", [
    ("modality_tense", "Lumora has started a Phase 3 trial of LMR-204.", "C"),
    ("negation", "The Phase 2 trial of LMR-204 failed its primary endpoint.", "C"),
    ("number", "The Phase 3 trial of LMR-204 will enrol 400 patients.", "U"),
    ("comparison", "Lumora had more than 200 employees at the end of 2023.", "S"),
    ("paraphrase", "Lumora's Phase 2 study of LMR-204 in moderate psoriasis succeeded on its main goal.", "S"),
    ("money", "Lumora held USD 318 million in cash at the end of 2023.", "S"),
])
